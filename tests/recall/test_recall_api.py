from __future__ import annotations

import pytest

from tests.base import ApiClient, issue_key

pytestmark = pytest.mark.django_db


@pytest.fixture
def stored(api, model, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        r = api.post("/users/u1/facts", {"text": "User is allergic to peanuts.", "category": "health"})
        api.post("/users/u1/facts", {"text": "User lives in Berlin."})
    return r.json()


def test_it_recalls_with_facts_scores_and_signals(api, stored):
    r = api.post("/users/u1/recall", {"query": "peanut allergy", "k": 2})
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["mode"] == "hybrid" and body["degraded"] is False
    top = body["items"][0]
    assert top["fact"]["id"] == stored["id"] and top["fact"]["text"] == "User is allergic to peanuts."
    assert top["score"] > 0 and "vector_rank" in top["signals"]
    assert len(body["items"]) == 2


def test_it_accepts_modes_budget_and_as_of(api, stored):
    r = api.post("/users/u1/recall", {"query": "Berlin", "mode": "lexical", "budget_chars": 25})
    assert r.status_code == 200
    assert [i["fact"]["text"] for i in r.json()["items"]] == ["User lives in Berlin."]
    r = api.post("/users/u1/recall", {"query": "Berlin", "as_of": "2001-01-01T00:00:00Z"})
    assert r.status_code == 200 and r.json()["items"] == []


@pytest.mark.parametrize(
    "body",
    [
        {"query": "x", "mode": "fuzzy"},
        {"query": "x", "k": 0},
        {"query": "x", "k": 1000},
        {"query": "x", "budget_chars": 0},
        {"query": "x", "as_of": "yesterday"},
        {"query": 5},
        {"query": "x" * 20_001},
    ],
)
def test_bad_input_is_a_422(api, stored, body):
    assert api.post("/users/u1/recall", body).status_code == 422


def test_other_tenants_and_unknown_users_get_404(bob_api, api, stored):
    assert bob_api.post("/users/u1/recall", {"query": "peanuts"}).status_code == 404
    assert api.post("/users/nobody/recall", {"query": "peanuts"}).status_code == 404


def test_it_needs_a_key_with_read_scope(alice, stored):
    assert ApiClient(None).post("/users/u1/recall", {"query": "x"}).status_code == 401
    assert ApiClient(issue_key(alice.tenant, ["write"])).post("/users/u1/recall", {"query": "x"}).status_code == 403
    assert ApiClient(issue_key(alice.tenant, ["read"])).post("/users/u1/recall", {"query": "x"}).status_code == 200
