"""Every item of REST recall with `sources` carries `provenance` (docs/api.md): the source turn's
ids, when it was said and the extractor; null fields for a fact no turn stated."""

from __future__ import annotations

import pytest

from facts.models import Turn

pytestmark = pytest.mark.django_db

SAID = "I work at Samsung as a nurse."
DOG = "We just adopted a dog called Biscuit."


def _items(client, query: str) -> list[dict]:
    response = client.post("/users/u1/recall", {"query": query, "sources": ["facts", "episodes"]})
    assert response.status_code == 200, response.content
    return response.json()["items"]


def test_a_fact_hit_and_an_episode_hit_name_the_turn_they_came_from(api, post_turn, settings):
    settings.MEMORY_RECALL_FACTS_THROUGH_TURNS = False  # a fact item of its own, not folded into its turn
    post_turn(api, "t1", SAID)
    post_turn(api, "t2", DOG)  # the rules extractor finds no fact here: it is recalled as an episode
    items = _items(api, "Samsung dog Biscuit")

    [fact_item] = [i for i in items if i["kind"] == "fact"]
    [episode_item] = [i for i in items if i["kind"] == "episode"]
    assert episode_item["episode"]["text"] == DOG
    for item, turn_id in ((fact_item, "t1"), (episode_item, "t2")):
        turn = Turn.objects.get(turn_id=turn_id)
        provenance = item["provenance"]
        assert (provenance["turn_id"], provenance["session_id"]) == (turn_id, "s1"), item
        assert provenance["occurred_at"].startswith(turn.occurred_at.date().isoformat())
        assert (provenance["extractor"], provenance["model"]) == ("rules", None)


def test_a_fact_stored_through_the_api_has_provenance_with_null_fields(api, post_turn):
    api.post("/users/u1/facts", {"text": "User owns a kayak called Biscuit."})
    [item] = [i for i in _items(api, "kayak Biscuit") if i["kind"] == "fact"]
    assert item["provenance"] == {
        "turn_id": None,
        "session_id": None,
        "occurred_at": None,
        "extractor": None,
        "model": None,
    }
