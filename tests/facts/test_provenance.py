"""GET /facts/{id}/provenance (docs/api.md): the source turn, the extraction and every decision
over the fact's chain, in order; another tenant's fact is a 404; a forgotten fact's words appear
in no answer. Real commits (extraction and the forget's work run after commit), on both engines."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model

from facts import services
from facts.models import Fact
from facts.services.actors import SYSTEM
from facts.services.memory_mode import memory_mode_set

pytestmark = pytest.mark.django_db(transaction=True)


def _city() -> str:
    # A made-up capitalised city of letters only, which the rules extractor takes for a place.
    return "Qar" + uuid.uuid4().hex[:10].translate(str.maketrans("0123456789abcdef", "bcdfghjklmnpqrst")) + "ville"


def _say(api, text: str, turn_id: str, user: str = "u1") -> None:
    r = api.post(f"/users/{user}/turns", {"session_id": "s1", "turn_id": turn_id, "user_input": text})
    assert r.status_code == 202, r.text


def _provenance(api, fact_id) -> dict:
    r = api.get(f"/facts/{fact_id}/provenance")
    assert r.status_code == 200, r.text
    return r.json()


def test_provenance_names_the_turn_its_words_the_extractor_and_the_insert(api):
    words = "I work at Samsung as a nurse."
    _say(api, words, "t1")
    fact = Fact.objects.get(key="employer")

    body = _provenance(api, fact.uuid)

    assert body["fact_id"] == str(fact.uuid) and body["user_id"] == "u1"
    source = body["source"]
    assert (source["turn_id"], source["session_id"]) == ("t1", "s1") and source["occurred_at"]
    assert source["quote"] == {"text": words, "injection_rule": None}
    extraction = body["extraction"]
    assert (extraction["actor_kind"], extraction["extractor"], extraction["model"]) == ("extractor", "rules", None)
    assert [(d["action"], d["actor_kind"], d["source_turn_id"]) for d in body["decisions"]] == [
        ("insert", "extractor", "t1")
    ]


def test_provenance_lists_every_decision_over_the_chain_in_order(api, alice):
    first = api.post("/users/u1/facts", {"text": "User drinks tea.", "key": "drink"}).json()
    second = api.patch(f"/facts/{first['id']}", {"text": "User drinks coffee."}).json()
    user = Fact.objects.get(uuid=second["id"]).user
    memory_mode_set(user=user, mode="confirm", actor=SYSTEM)
    third = api.patch(f"/facts/{second['id']}", {"text": "User drinks green tea."}).json()
    staff = get_user_model().objects.create_user("reviewer", password="x")
    services.pending_approve(fact=Fact.objects.get(uuid=third["id"]), actor=services.Actor.staff(staff))

    body = _provenance(api, third["id"])

    steps = [(d["fact_id"], d["action"], d["actor_kind"]) for d in body["decisions"]]
    assert steps == [
        (first["id"], "insert", "api_key"),
        (second["id"], "insert", "api_key"),
        (first["id"], "supersede", "api_key"),
        (third["id"], "pending", "api_key"),
        (second["id"], "supersede", "staff"),  # the approval retires the value it replaces, then confirms
        (third["id"], "confirm", "staff"),
    ]
    assert body["decisions"][5]["actor_id"] == "reviewer"
    times = [d["created_at"] for d in body["decisions"]]
    assert times == sorted(times)
    assert body["source"] is None and body["extraction"]["extractor"] is None
    assert body["extraction"]["actor_kind"] == "api_key"


def test_another_tenants_fact_is_a_404(api, bob_api):
    fact = api.post("/users/u1/facts", {"text": "User drinks tea."}).json()
    assert api.get(f"/facts/{fact['id']}/provenance").status_code == 200
    assert bob_api.get(f"/facts/{fact['id']}/provenance").status_code == 404
    assert api.get(f"/facts/{uuid.uuid4()}/provenance").status_code == 404


def test_a_forgotten_facts_words_appear_in_no_provenance_answer(api):
    city = _city()
    _say(api, f"I live in {city} and I work at Samsung as a nurse.", "t1")
    employer = Fact.objects.get(key="employer")
    assert city in str(_provenance(api, employer.uuid)), "the quote held the city, so its absence proves something"

    assert api.delete("/users/u1/facts", key="home_city").json() == {"deleted": 1}

    body = _provenance(api, employer.uuid)
    assert city.lower() not in str(body).lower()
    assert body["source"]["turn_id"] == "t1" and body["source"]["quote"] is None


def test_a_forgotten_earlier_version_leaves_no_words_in_the_chains_provenance(api):
    city = _city()
    old = api.post("/users/u1/facts", {"text": f"User lives in {city}.", "key": "home_city"}).json()
    new = api.patch(f"/facts/{old['id']}", {"text": "User lives in Lisbon."}).json()
    assert api.delete(f"/facts/{old['id']}").status_code == 204

    body = _provenance(api, new["id"])
    assert city.lower() not in str(body).lower()
    assert [d["action"] for d in body["decisions"] if d["fact_id"] == old["id"]][-1] == "delete"
