"""MEMORY_RECALL_TURN_KEYS=words+facts: a turn's episode entry holds the live facts extracted from it,
and follows them as they change, through the index outbox (docs/recall.md "Turn keys")."""

from __future__ import annotations

import pytest

from facts import privacy, services
from facts.models import Fact, Turn
from recall import fts, indexer, vec
from recall.models import PendingIndex
from recall.query import words
from recall.tables import EPISODES

pytestmark = pytest.mark.django_db

# The offline rules make "User dislikes cilantro." of it: "dislikes" is a word only the fact has.
SAID = "Honestly, I can't stand cilantro."
FACT_ONLY = "dislikes"


@pytest.fixture
def with_facts(settings):
    settings.MEMORY_RECALL_TURN_KEYS = "words+facts"


def matches(turn: Turn, query: str) -> list[int]:
    """The user's turns whose FTS entry matches the query's words (both engines' index)."""
    return [pk for pk, _ in fts.search(turn.user_id, words(query), 10, EPISODES)]


def episode_texts(client, query: str, mode: str = "lexical") -> list[str]:
    response = client.post("/users/u1/recall", {"query": query, "mode": mode, "sources": ["episodes"]})
    assert response.status_code == 200, response.content
    return [i["episode"]["text"] for i in response.json()["items"] if i["kind"] == "episode"]


def said(api, post_turn) -> tuple[Turn, Fact]:
    post_turn(api, "t1", SAID)
    fact = Fact.objects.live().get(source_turn__turn_id="t1")
    assert FACT_ONLY in fact.text.lower() and FACT_ONLY not in SAID.lower()
    return Turn.objects.get(turn_id="t1"), fact


def test_with_words_keys_a_turn_is_indexed_under_its_own_words_only(api, post_turn, settings):
    settings.MEMORY_RECALL_TURN_KEYS = "words"
    turn, _ = said(api, post_turn)
    assert matches(turn, "cilantro") == [turn.pk]
    assert matches(turn, FACT_ONLY) == []


def test_with_facts_recall_finds_the_turn_by_a_word_only_its_fact_has(api, post_turn, with_facts):
    turn, _ = said(api, post_turn)
    assert matches(turn, FACT_ONLY) == [turn.pk]
    # The caller receives the turn's own words, which the fact was extracted from.
    assert episode_texts(api, f"what does the user {FACT_ONLY}?") == [SAID]
    assert episode_texts(api, f"what does the user {FACT_ONLY}?", mode="hybrid")[0] == SAID


def test_retiring_the_fact_takes_its_words_out_of_the_turns_entry_through_the_outbox(
    api, post_turn, with_facts, django_capture_on_commit_callbacks
):
    turn, fact = said(api, post_turn)
    before = vec.indexed([turn.pk], EPISODES)[turn.pk]
    with django_capture_on_commit_callbacks() as callbacks:
        response = api.patch(f"/facts/{fact.uuid}", {"text": "User is fine with coriander now."})
    assert response.status_code == 200, response.content
    # The correction marked the turn in the outbox, in its own transaction; it is indexed after commit.
    assert PendingIndex.objects.filter(kind=PendingIndex.Kind.EPISODE, item_id=turn.pk).exists()
    assert matches(turn, FACT_ONLY) == [turn.pk]
    for callback in callbacks:
        callback()
    assert not PendingIndex.objects.exists()
    assert matches(turn, FACT_ONLY) == [] and matches(turn, "cilantro") == [turn.pk]
    after = vec.indexed([turn.pk], EPISODES)[turn.pk]
    assert after != before and after[1] == fts.indexed_hashes([turn.pk], EPISODES)[turn.pk]


@pytest.mark.parametrize("withdraw_turn", [False, True])
def test_forgetting_the_fact_leaves_its_words_in_no_turn_entry_when_the_forget_commits(
    api, post_turn, with_facts, django_capture_on_commit_callbacks, withdraw_turn
):
    turn, fact = said(api, post_turn)
    assert matches(turn, FACT_ONLY) == [turn.pk]
    with django_capture_on_commit_callbacks() as callbacks:
        response = api.delete(f"/facts/{fact.uuid}", withdraw_turn=str(withdraw_turn).lower())
    assert response.status_code == 204, response.content
    # Gone inside the forget's own transaction, before any indexing after commit ...
    assert matches(turn, FACT_ONLY) == [] and matches(turn, "cilantro") == []
    assert vec.count_user(turn.user_id, EPISODES) == 0
    # ... and nothing brings them back afterwards.
    for callback in callbacks:
        callback()
    indexer.drain()
    assert fts.count_user(turn.user_id, EPISODES) == 0 and vec.count_user(turn.user_id, EPISODES) == 0
    assert episode_texts(api, FACT_ONLY, mode="hybrid") == []


def test_erasing_the_user_drops_the_turn_entries_that_held_facts(api, post_turn, with_facts):
    turn, _ = said(api, post_turn)
    assert matches(turn, FACT_ONLY) == [turn.pk]
    privacy.user_erase(user=turn.user, actor=services.SYSTEM)
    assert fts.count_user(turn.user_id, EPISODES) == 0 and vec.count_user(turn.user_id, EPISODES) == 0
