from __future__ import annotations

import pytest

from facts.models import Fact, FactHistory, MemoryUser


def _counts():
    return Fact.objects.count(), FactHistory.objects.count(), MemoryUser.objects.count()


def test_it_creates_a_fact_with_history(api):
    r = api.post(
        "/users/u1/facts",
        {"text": "User lives in Lisbon.", "category": "identity", "key": "home_city", "entities": ["Lisbon"]},
    )
    assert r.status_code == 201
    body = r.json()
    assert body["user_id"] == "u1" and body["key"] == "home_city" and body["entities"] == ["lisbon"]
    assert body["valid_to"] is None and body["mention_count"] == 1
    entries = api.get(f"/facts/{body['id']}/history").json()
    assert [e["action"] for e in entries] == ["insert"]
    assert entries[0]["actor_kind"] == "api_key"


def test_a_verbatim_duplicate_returns_the_existing_fact_and_refreshes_it(api):
    first = api.post("/users/u1/facts", {"text": "User likes jazz."}).json()
    r = api.post("/users/u1/facts", {"text": "  user LIKES   jazz  "})
    assert r.status_code == 200
    again = r.json()
    assert again["id"] == first["id"]
    assert again["mention_count"] == 2
    assert again["confidence"] > first["confidence"]
    assert Fact.objects.count() == 1


def test_repetition_moves_confidence_towards_one(api):
    confidences = [api.post("/users/u1/facts", {"text": "User owns a bike."}).json()["confidence"] for _ in range(6)]
    assert confidences[0] == 0.4
    assert confidences == sorted(confidences) and confidences[-1] < 1.0 and confidences[-1] > 0.85


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"text": ""},
        {"text": "   "},
        {"text": 42},
        {"text": "User is tall.", "category": "astrology"},
        {"text": "User is tall.", "confidence": 1.5},
        {"text": "User is tall.", "confidence": -0.1},
        {"text": "User is tall.", "valid_from": "not a date"},
        {"text": "User is tall.", "entities": ["a", "b", "c", "d", "e"]},
        {"text": "User is tall.", "key": "k" * 65},
        {"text": ["User is tall."]},
    ],
)
def test_a_bad_body_is_422_and_writes_nothing(api, body):
    before = _counts()
    r = api.post("/users/u1/facts", body)
    assert r.status_code == 422, r.content
    assert r.json()["detail"]
    assert _counts() == before


def test_malformed_json_is_a_clear_4xx_and_writes_nothing(api):
    before = _counts()
    r = api.post("/users/u1/facts", raw=b'{"text": "User is tall.",')
    assert r.status_code == 400
    assert "parse" in r.json()["detail"].lower()
    assert _counts() == before


def test_oversize_text_is_422_naming_the_rule(api, settings):
    before = _counts()
    r = api.post("/users/u1/facts", {"text": "User likes " + "x" * settings.MEMORY_MAX_FACT_CHARS})
    assert r.status_code == 422
    assert r.json()["rule"] == "too_long"
    assert _counts() == before


@pytest.mark.parametrize("user_id", ["a" * 129, "has/slash", "tab%09here", "nul%00byte", "esc%1B"])
def test_a_bad_user_id_is_422(api, user_id):
    before = _counts()
    r = api.post(f"/users/{user_id}/facts", {"text": "User is tall."})
    assert r.status_code in (404, 422)  # a slash never even routes
    assert _counts() == before


def test_the_per_user_budget_refuses_more_text_and_keeps_what_was_stored(api, settings):
    settings.MEMORY_OTHER_BUDGET_CHARS = 100
    kept = api.post("/users/u1/facts", {"text": "User collects stamps from the nineteen sixties.", "category": "other"})
    assert kept.status_code == 201
    before = _counts()
    r = api.post(
        "/users/u1/facts", {"text": "User restores old motorbikes in a shed behind the house.", "category": "project"}
    )
    assert r.status_code == 422 and r.json()["rule"] == "user_budget"
    assert _counts() == before
    # Profile facts are metered separately, so they still fit.
    assert api.post("/users/u1/facts", {"text": "User prefers tea.", "category": "soft_preference"}).status_code == 201
    assert Fact.objects.get(uuid=kept.json()["id"]).is_live


def test_a_first_write_refused_by_the_budget_leaves_no_user_behind(api, settings):
    settings.MEMORY_OTHER_BUDGET_CHARS = 10
    before = _counts()
    r = api.post("/users/brand-new/facts", {"text": "User restores old motorbikes."})
    assert r.status_code == 422 and r.json()["rule"] == "user_budget"
    assert _counts() == before
    assert api.get("/users/brand-new/facts").status_code == 404
