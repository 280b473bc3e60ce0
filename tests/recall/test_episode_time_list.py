"""A time the query names ranks episodes by when they were said, as it ranks facts by their time."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest
from django.utils import timezone

from facts.models import Turn

pytestmark = pytest.mark.django_db

OLD = "I went hiking in the Alps, hiking every day with my brother."
RECENT = "I went hiking by the lake with Sam."
QUESTION = "what did I say last week about hiking?"


@pytest.fixture
def two_hikes(model, api, settings, django_capture_on_commit_callbacks):
    """Two hiking turns: a word-for-word stronger one from two months ago, a weaker one from last week."""
    settings.OPENAI_API_KEY = ""
    # The time list alone: newer-first and the newest leader first would also put last week's
    # hike first (test_newer_first.py, test_newest_leader_first.py).
    settings.MEMORY_RECALL_RECENCY_WEIGHT = 0.0
    settings.MEMORY_RECALL_LEADER_RATIO = 1.0
    for turn_id, text in (("old", OLD), ("recent", RECENT)):
        body = {"session_id": "s1", "turn_id": turn_id, "user_input": text}
        with django_capture_on_commit_callbacks(execute=True):
            assert api.post("/users/u1/turns", body).status_code in (200, 202)
    today = timezone.now().astimezone(UTC).replace(hour=12, minute=0, second=0, microsecond=0)
    last_friday = today - timedelta(days=today.weekday() + 3)  # the Friday of the previous week
    Turn.objects.filter(turn_id="recent").update(occurred_at=last_friday)
    Turn.objects.filter(turn_id="old").update(occurred_at=today - timedelta(days=60))
    assert Turn.objects.episodes().count() == 2


def episodes_of(api, query: str, **extra) -> list[dict]:
    response = api.post("/users/u1/recall", {"query": query, "sources": ["episodes"], **extra})
    assert response.status_code == 200, response.content
    return [item for item in response.json()["items"] if item["kind"] == "episode"]


def test_a_time_the_query_names_ranks_the_episode_said_then_first(api, two_hikes, settings):
    settings.MEMORY_RECALL_TIME_WEIGHT = 0.0  # without the time list the stronger match leads
    assert [e["episode"]["text"] for e in episodes_of(api, QUESTION)] == [OLD, RECENT]

    settings.MEMORY_RECALL_TIME_WEIGHT = 3.0
    ranked = episodes_of(api, QUESTION)
    assert [e["episode"]["text"] for e in ranked] == [RECENT, OLD]
    assert ranked[0]["signals"]["time_rank"] == 1 and "time_rank" not in ranked[1]["signals"]


def test_without_a_time_in_the_query_or_outside_hybrid_nothing_changes(api, two_hikes):
    assert [e["episode"]["text"] for e in episodes_of(api, "what did I say about hiking?")] == [OLD, RECENT]
    lexical = episodes_of(api, QUESTION, mode="lexical")
    assert [e["episode"]["text"] for e in lexical] == [OLD, RECENT]
    assert all("time_rank" not in e["signals"] for e in lexical)


def test_an_episode_said_then_joins_even_when_it_matches_no_word(api, two_hikes):
    ranked = episodes_of(api, "what did I say last week about the weather?")
    assert [e["episode"]["text"] for e in ranked][:1] == [RECENT]
    assert ranked[0]["signals"]["time_rank"] == 1


def test_as_of_moves_the_named_time_and_keeps_later_episodes_out(api, two_hikes):
    old_when = Turn.objects.get(turn_id="old").occurred_at
    # The Tuesday after the old hike's week: "last week" is then the week of the old hike.
    as_of = old_when - timedelta(days=old_when.weekday()) + timedelta(days=8)
    ranked = episodes_of(api, QUESTION, as_of=as_of.isoformat())
    assert [e["episode"]["text"] for e in ranked] == [OLD]
    assert ranked[0]["signals"]["time_rank"] == 1


def test_newer_first_puts_the_hike_of_last_week_first_without_a_time_in_the_query(api, two_hikes, settings):
    settings.MEMORY_RECALL_RECENCY_WEIGHT = 0.2
    ranked = episodes_of(api, "what did I say about hiking?")
    assert [e["episode"]["text"] for e in ranked] == [RECENT, OLD]
    assert ranked[0]["signals"]["recency_boost"] == 0.2 and ranked[1]["signals"]["recency_boost"] == 0.0
