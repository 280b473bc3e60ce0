"""REST recall without `sources` (the v1 shape, docs/api.md) gives each item `provenance` too, as
with `sources`: the source turn's ids, when it was said and the extractor; null fields for a fact
no turn stated. Added beside `fact`, `score` and `signals`, which stay as they were."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from facts.models import Turn

pytestmark = pytest.mark.django_db

SAID = "I work at Samsung as a nurse."


def _items(client, query: str) -> list[dict]:
    response = client.post("/users/u1/recall", {"query": query})
    assert response.status_code == 200, response.content
    return response.json()["items"]


def test_a_v1_item_names_the_turn_its_fact_was_said_in(api, post_turn):
    post_turn(api, "t1", SAID)
    [item] = _items(api, "Samsung")

    assert set(item) == {"fact", "score", "signals", "provenance"}
    provenance = item["provenance"]
    said = datetime.fromisoformat(provenance.pop("occurred_at"))
    assert provenance == {"turn_id": "t1", "session_id": "s1", "extractor": "rules", "model": None}
    # JSON carries milliseconds (Django's encoder).
    assert abs(said - Turn.objects.get(turn_id="t1").occurred_at) < timedelta(milliseconds=1)
    assert item["fact"]["source_turn_id"] == "t1"  # the v1 fact payload is unchanged


def test_a_v1_item_of_a_fact_stored_through_the_api_has_null_provenance(api, model):
    assert api.post("/users/u1/facts", {"text": "User owns a kayak called Biscuit."}).status_code == 201
    [item] = _items(api, "kayak Biscuit")

    assert item["provenance"] == dict.fromkeys(("turn_id", "session_id", "occurred_at", "extractor", "model"))
