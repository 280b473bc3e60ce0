"""A time counted back in the query ("last Tuesday", "two weeks ago") ranks first, through REST
/recall, the turn said in the time it names (recall.time_relative; on both engines)."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest
from django.utils import timezone

from facts.models import Turn

pytestmark = pytest.mark.django_db

OLD = "I went hiking in the Alps, hiking every day with my brother."
RECENT = "I went hiking by the lake with Sam."


def _noon_days_ago(days: int):
    today = timezone.now().astimezone(UTC).replace(hour=12, minute=0, second=0, microsecond=0)
    return today - timedelta(days=days)


@pytest.fixture
def two_hikes(model, api, settings, django_capture_on_commit_callbacks):
    """A hike that matches the words better, said two months ago, and a weaker one said `recent_at`."""
    settings.OPENAI_API_KEY = ""
    # The time list alone: newer-first and the newest leader first also favour the later turn.
    settings.MEMORY_RECALL_RECENCY_WEIGHT = 0.0
    settings.MEMORY_RECALL_LEADER_RATIO = 1.0
    for turn_id, text in (("old", OLD), ("recent", RECENT)):
        body = {"session_id": "s1", "turn_id": turn_id, "user_input": text}
        with django_capture_on_commit_callbacks(execute=True):
            assert api.post("/users/u1/turns", body).status_code in (200, 202)
    Turn.objects.filter(turn_id="old").update(occurred_at=_noon_days_ago(60))
    assert Turn.objects.episodes().count() == 2

    def said(moment) -> None:
        Turn.objects.filter(turn_id="recent").update(occurred_at=moment)

    return said


def _texts(api, query: str, **extra) -> list[str]:
    response = api.post("/users/u1/recall", {"query": query, "sources": ["facts", "episodes"], **extra})
    assert response.status_code == 200, response.content
    return [item["episode"]["text"] for item in response.json()["items"] if item["kind"] == "episode"]


def test_last_tuesday_ranks_the_turn_said_that_tuesday_first(api, two_hikes, settings):
    today = _noon_days_ago(0)
    two_hikes(today - timedelta(days=(today.weekday() - 1 - 1) % 7 + 1))  # the latest Tuesday before today
    question = "what did I say about hiking last Tuesday?"
    assert _texts(api, "what did I say about hiking?") == [OLD, RECENT]  # the better match leads
    assert _texts(api, question) == [RECENT, OLD]
    settings.MEMORY_RECALL_TIME_WEIGHT = 0.0  # the time list is what moves it
    assert _texts(api, question) == [OLD, RECENT]


def test_two_weeks_ago_counts_back_from_as_of(api, two_hikes):
    as_of = _noon_days_ago(10)
    two_hikes(as_of - timedelta(days=14))
    question = "what did I say about hiking two weeks ago?"
    assert _texts(api, question, as_of=as_of.isoformat()) == [RECENT, OLD]
    # Counted from today, two weeks ago is four days after that turn: no longer the time it names.
    assert _texts(api, question) == [OLD, RECENT]


def test_what_was_said_within_the_time_named_ranks_before_what_was_said_about_it_later(api, two_hikes):
    # "last Tuesday" reaches to today: a turn said since may be about it, but the one said that
    # Tuesday comes first in the time list, whatever the words' scores (recall.time_list).
    from facts.models import MemoryUser
    from recall import episodes, fusion, time_list
    from recall.dates import windows

    today = _noon_days_ago(0)
    tuesday = today - timedelta(days=(today.weekday() - 1 - 1) % 7 + 1)
    two_hikes(tuesday)
    Turn.objects.filter(turn_id="old").update(occurred_at=today - timedelta(hours=1))
    turns = dict(Turn.objects.values_list("turn_id", "pk"))
    cands = {turns["old"]: fusion.Candidate(turns["old"], 2.0), turns["recent"]: fusion.Candidate(turns["recent"], 1.0)}
    said = episodes.said_by(MemoryUser.objects.get(external_id="u1"), None)
    found = windows("hiking last Tuesday", timezone.now())
    assert time_list.in_windows(said, cands, found, 10, time_list.EPISODE_MOMENT) == [turns["recent"], turns["old"]]
    # A date named outright has no reach beyond it: the fused score alone orders what it holds.
    Turn.objects.filter(turn_id="old").update(occurred_at=tuesday + timedelta(hours=1))
    on_the_day = windows(f"hiking on {tuesday:%Y-%m-%d}", timezone.now())
    assert time_list.in_windows(said, cands, on_the_day, 10, time_list.EPISODE_MOMENT) == [
        turns["old"],
        turns["recent"],
    ]
