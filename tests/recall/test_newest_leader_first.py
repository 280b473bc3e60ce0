"""Newest leader first: of the first hits of a hybrid recall, those that answer about as well as
the best go in the order they were said, newest first, so a changed value's latest statement
leads (recall.fusion.newest_leaders_first, docs/recall.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from facts.models import Fact, Turn
from recall import fusion
from recall.services import recall

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)


class _Hit:
    def __init__(self, name: str, score: float):
        self.name, self.score, self.signals = name, score, {}


def _reorder(scored: list[tuple[str, float, float]], ratio: float = 1.5) -> list[str]:
    """(name, score, days ago) in score order -> the names in the rule's order."""
    hits = [_Hit(name, score) for name, score, _ in scored]
    moments = [NOW - timedelta(days=days) for _, _, days in scored]
    return [h.name for h in fusion.newest_leaders_first(hits, moments, ratio)]


def test_leaders_go_newest_day_first_and_hits_of_one_day_keep_their_score_order():
    scored = [("best", 1.0, 30), ("same-day-a", 0.9, 2), ("same-day-b", 0.8, 2.2), ("newest", 0.7, 0)]
    assert _reorder(scored) == ["newest", "same-day-a", "same-day-b", "best"]


def test_a_hit_under_the_best_share_keeps_its_place_and_the_next_ones_too():
    scored = [("best", 1.0, 30), ("close", 0.7, 10), ("weak", 0.6, 0), ("weak-but-newer", 0.65, 0)]
    # 0.6 < 1.0 / 1.5: the leaders end there, and what follows is not looked at.
    assert _reorder(scored) == ["close", "best", "weak", "weak-but-newer"]


def test_ratio_one_changes_nothing_and_marks_nothing():
    hits = [_Hit("old", 1.0), _Hit("new", 0.99)]
    out = fusion.newest_leaders_first(hits, [NOW - timedelta(days=9), NOW], 1.0)
    assert [h.name for h in out] == ["old", "new"] and not any(h.signals for h in out)


def test_only_the_first_five_are_reordered_so_every_top_k_of_five_or_more_keeps_its_hits():
    scored = [(f"old-{i}", 1.0 - i / 100, 40 - i) for i in range(fusion.LEADERS_AT_MOST)]
    scored.append(("sixth-and-newest", 0.9, 0))
    names = _reorder(scored)
    assert names[: fusion.LEADERS_AT_MOST] == [f"old-{i}" for i in reversed(range(fusion.LEADERS_AT_MOST))]
    assert names[-1] == "sixth-and-newest"


# Other things the user said a month ago: with a handful of facts BM25 has no word weights
# to speak of, and the first hit would lead every other by about twice its score.
FILLER = [
    f"User's {thing} is {colour}."
    for thing in ("car", "bike", "scarf", "mug", "door", "tent")
    for colour in ("red", "blue", "green")
]
QUESTION = "How many different species of birds have I seen in my local park?"
OLDER = "User has seen 27 different species of birds in the local park."
NEWER = "User has now seen 32 species in the local park."
NEWER_FAR = "A Northern Flicker brought the user's count of bird species to 32."


def _said(memory, user, text: str, days_ago: int) -> Fact:
    return memory.said(user, text, NOW - timedelta(days=days_ago))


def _user_who_said(memory, older: str, newer: str):
    user = memory.user()
    for text in FILLER:
        _said(memory, user, text, days_ago=30)
    return user, _said(memory, user, older, days_ago=14), _said(memory, user, newer, days_ago=9)


def _first_two(user, **kwargs) -> list:
    return recall(user=user, query=QUESTION, k=2, log=False, **kwargs).items


@pytest.mark.parametrize("point_in_time", [False, True], ids=["live", "as_of"])
def test_the_latest_count_leads_though_the_older_statement_matches_the_words_better(memory, settings, point_in_time):
    user, older, newer = _user_who_said(memory, OLDER, NEWER)
    as_of = NOW if point_in_time else None

    settings.MEMORY_RECALL_LEADER_RATIO = 1.0
    assert [h.fact.pk for h in _first_two(user, as_of=as_of)] == [older.pk, newer.pk]  # newer-first alone
    settings.MEMORY_RECALL_LEADER_RATIO = 1.5
    items = _first_two(user, as_of=as_of)
    assert [h.fact.pk for h in items] == [newer.pk, older.pk]
    assert items[0].score < items[1].score <= items[0].score * 1.5  # the rule's order, not the score's
    assert all(h.signals["leader"] for h in items)


def test_an_older_statement_that_answers_clearly_better_keeps_the_lead(memory):
    user, older, newer = _user_who_said(memory, OLDER, NEWER_FAR)
    items = _first_two(user)
    assert [h.fact.pk for h in items] == [older.pk, newer.pk]
    assert items[0].score > items[1].score * 1.5 and "leader" not in items[1].signals


def test_lexical_and_vector_recall_keep_the_score_order(memory):
    user, older, newer = _user_who_said(memory, OLDER, NEWER)
    for mode in ("lexical", "vector"):
        assert [h.fact.pk for h in _first_two(user, mode=mode)] == [older.pk, newer.pk]


def test_the_latest_restated_value_leads_the_episodes_over_the_api(
    model, api, settings, django_capture_on_commit_callbacks
):
    settings.OPENAI_API_KEY = ""
    said = {
        "older": "I've seen 27 different species of birds in my local park.",
        "newer": "I've now seen 32 species in my local park.",
    }
    turns = {f"filler-{i}": text.replace("User's", "My") for i, text in enumerate(FILLER)} | said
    for turn_id, text in turns.items():
        with django_capture_on_commit_callbacks(execute=True):
            body = {"session_id": turn_id, "turn_id": turn_id, "user_input": text}
            assert api.post("/users/u1/turns", body).status_code in (200, 202)
    Turn.objects.filter(turn_id__startswith="filler").update(occurred_at=NOW - timedelta(days=30))
    Turn.objects.filter(turn_id="older").update(occurred_at=NOW - timedelta(days=14))
    Turn.objects.filter(turn_id="newer").update(occurred_at=NOW - timedelta(days=9))

    def first_two(ratio: float) -> list[str]:
        settings.MEMORY_RECALL_LEADER_RATIO = ratio
        response = api.post("/users/u1/recall", {"query": QUESTION, "sources": ["episodes"], "k": 2})
        assert response.status_code == 200, response.content
        return [item["episode"]["text"] for item in response.json()["items"]]

    assert first_two(1.0) == [said["older"], said["newer"]]
    assert first_two(1.5) == [said["newer"], said["older"]]
