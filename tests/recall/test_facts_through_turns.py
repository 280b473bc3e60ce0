"""MEMORY_RECALL_FACTS_THROUGH_TURNS: with words+facts turn keys, a recall over facts and episodes ranks
a fact its turn's key holds through that turn and returns it folded into the turn's item
(docs/recall.md "Facts through their turns")."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

from facts.models import Fact

pytestmark = pytest.mark.django_db

# The offline rules make "User dislikes cilantro." of it.
SAID = "Honestly, I can't stand cilantro."
QUERY = "what does the user dislike?"


@pytest.fixture
def keyed(settings):
    settings.MEMORY_RECALL_TURN_KEYS = "words+facts"


@pytest.fixture
def through_turns(keyed, settings):
    settings.MEMORY_RECALL_FACTS_THROUGH_TURNS = True


def recall_items(client, query: str, **extra) -> list[dict]:
    body = {"query": query, "mode": "hybrid", "sources": ["facts", "episodes"], **extra}
    response = client.post("/users/u1/recall", body)
    assert response.status_code == 200, response.content
    return response.json()["items"]


def fact_items(items: list[dict]) -> list[str]:
    return [i["fact"]["id"] for i in items if i["kind"] == "fact"]


def test_a_fact_its_turns_key_holds_comes_back_folded_into_that_turn_not_as_an_item_of_its_own(
    api, post_turn, through_turns
):
    post_turn(api, "t1", SAID)
    fact = Fact.objects.live().get(source_turn__turn_id="t1")
    items = recall_items(api, QUERY)
    assert str(fact.uuid) not in fact_items(items)
    [turn_item] = [i for i in items if i["kind"] == "episode" and i["episode"]["turn_id"] == "t1"]
    assert turn_item["episode"]["text"] == SAID
    assert [f["id"] for f in turn_item["folded_facts"]] == [str(fact.uuid)]
    assert turn_item["folded_facts"][0]["text"] == fact.text


def test_with_the_setting_off_the_same_fact_is_ranked_in_its_own_lists(api, post_turn, keyed, settings):
    settings.MEMORY_RECALL_FACTS_THROUGH_TURNS = False
    post_turn(api, "t1", SAID)
    fact = Fact.objects.live().get(source_turn__turn_id="t1")
    items = recall_items(api, QUERY)
    assert fact_items(items) == [str(fact.uuid)]
    assert all(i["kind"] == "fact" or not i["folded_facts"] for i in items)


def test_with_turn_keys_of_words_only_the_setting_changes_nothing(api, post_turn, settings):
    # The turn's key does not hold the fact's words: ranking the fact through it would lose them.
    settings.MEMORY_RECALL_FACTS_THROUGH_TURNS = True
    settings.MEMORY_RECALL_TURN_KEYS = "words"
    post_turn(api, "t1", SAID)
    fact = Fact.objects.live().get(source_turn__turn_id="t1")
    assert fact_items(recall_items(api, QUERY)) == [str(fact.uuid)]


def test_a_fact_no_turn_said_keeps_its_own_place(api, post_turn, through_turns, django_capture_on_commit_callbacks):
    post_turn(api, "t1", SAID)
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post("/users/u1/facts", {"text": "User's dog is called Biscuit."})
    assert response.status_code == 201, response.content
    items = recall_items(api, "what is the dog called?")
    assert fact_items(items)[0] == response.json()["id"]


def test_as_of_a_time_before_a_correction_the_fact_then_held_keeps_its_own_lists(api, post_turn, through_turns):
    # No live turn key holds the corrected-away words any more; the fact valid then is ranked itself.
    post_turn(api, "t1", SAID)
    old = Fact.objects.live().get(source_turn__turn_id="t1")
    time.sleep(0.01)
    response = api.patch(f"/facts/{old.uuid}", {"text": "User is fine with coriander now."})
    assert response.status_code == 200, response.content
    old.refresh_from_db()
    assert old.valid_to is not None
    items = recall_items(api, QUERY, as_of=(old.valid_to - timedelta(milliseconds=1)).isoformat())
    assert str(old.uuid) in fact_items(items)
    assert all(f["id"] != response.json()["id"] for i in items for f in i["folded_facts"])


def test_the_setting_without_keys_that_hold_facts_is_named_by_a_system_check(settings):
    from recall.checks import check_facts_through_turns

    settings.MEMORY_RECALL_FACTS_THROUGH_TURNS = True
    settings.MEMORY_RECALL_TURN_KEYS = "words"
    assert [w.id for w in check_facts_through_turns()] == ["recall.W001"]
    settings.MEMORY_RECALL_TURN_KEYS = "words+facts"
    assert check_facts_through_turns() == []


def test_a_fact_whose_turn_the_index_has_not_written_keeps_its_own_lists(api, post_turn, through_turns):
    # A lagging outbox: the turn is no episode candidate yet, so it cannot rank for its fact.
    from recall import fts, vec
    from recall.tables import EPISODES

    post_turn(api, "t1", SAID)
    fact = Fact.objects.live().get(source_turn__turn_id="t1")
    fts.delete([fact.source_turn_id], EPISODES)
    vec.delete([fact.source_turn_id], EPISODES)
    assert fact_items(recall_items(api, QUERY)) == [str(fact.uuid)]


def test_with_the_merge_off_the_fact_stays_an_item_of_its_own(api, post_turn, through_turns, settings):
    settings.MEMORY_RECALL_EPISODE_MERGE = False
    post_turn(api, "t1", SAID)
    fact = Fact.objects.live().get(source_turn__turn_id="t1")
    items = recall_items(api, QUERY)
    assert fact_items(items) == [str(fact.uuid)]
    assert all(not i["folded_facts"] for i in items if i["kind"] == "episode")
