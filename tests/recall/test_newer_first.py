"""Newer first: in hybrid recall the newer of two near-equal hits ranks first, and a clearly
better answer keeps its place (recall.fusion.prefer_newer, docs/recall.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from facts.models import Fact
from recall import fusion
from recall.services import recall

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 6, 1, tzinfo=UTC)


class _Hit:
    def __init__(self, score: float):
        self.score, self.signals = score, {}


def test_the_raise_grows_with_how_new_a_hit_is_up_to_the_weight():
    hits = [_Hit(1.0), _Hit(1.0), _Hit(1.0)]
    fusion.prefer_newer(hits, [NOW - timedelta(days=40), NOW - timedelta(days=20), NOW], weight=0.2)
    assert [round(h.score, 6) for h in hits] == [1.0, 1.1, 1.2]
    assert [h.signals["recency_boost"] for h in hits] == [0.0, 0.1, 0.2]


def test_hits_said_within_a_day_are_hardly_told_apart_and_weight_zero_changes_nothing():
    close = [_Hit(1.0), _Hit(1.0)]
    fusion.prefer_newer(close, [NOW - timedelta(seconds=30), NOW], weight=0.2)
    assert close[1].score - close[0].score < 0.0001
    off = [_Hit(1.0), _Hit(0.5)]
    fusion.prefer_newer(off, [NOW - timedelta(days=30), NOW], weight=0.0)
    assert [h.score for h in off] == [1.0, 0.5] and not off[1].signals


def _said(memory, user, text: str, days_ago: int) -> Fact:
    return memory.said(user, text, NOW - timedelta(days=days_ago))


def _order(user, query: str, **kwargs) -> list[int]:
    return [h.fact.pk for h in recall(user=user, query=query, k=2, log=False, **kwargs).items]


@pytest.mark.parametrize("point_in_time", [False, True], ids=["live", "as_of"])
def test_the_newer_of_two_near_equal_statements_ranks_first(memory, settings, point_in_time):
    user = memory.user()
    older = _said(memory, user, "User has 37 coins in the pre-1920 American coin collection.", days_ago=60)
    newer = _said(memory, user, "User now has 38 pre-1920 American coins in the collection.", days_ago=2)
    query, as_of = "How many pre-1920 American coins do I have?", (NOW if point_in_time else None)
    settings.MEMORY_RECALL_LEADER_RATIO = 1.0  # this rule alone (the other: test_newest_leader_first.py)

    settings.MEMORY_RECALL_RECENCY_WEIGHT = 0.0
    assert _order(user, query, as_of=as_of) == [older.pk, newer.pk]  # by the text alone
    settings.MEMORY_RECALL_RECENCY_WEIGHT = 0.2
    assert _order(user, query, as_of=as_of) == [newer.pk, older.pk]
    assert _order(user, query, as_of=as_of, mode="lexical") == [older.pk, newer.pk]  # hybrid only


def test_a_clearly_better_older_answer_keeps_its_place(memory, settings):
    settings.MEMORY_RECALL_RECENCY_WEIGHT = 0.2
    user = memory.user()
    answer = _said(memory, user, "User's locker code at the gym is KX123QZ.", days_ago=90)
    _said(memory, user, "User went to the gym on Tuesday.", days_ago=1)
    assert _order(user, "what is my gym locker code")[0] == answer.pk
