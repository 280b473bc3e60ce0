"""The human gate and the write path through the API: a model's number opens no gate, no statement is lost."""

from __future__ import annotations

from facts.models import Fact, FactHistory, Status
from tests.facts.extraction.conftest import add, reply


def test_a_models_confidence_does_not_let_one_statement_change_a_name(api, turns, fake_llm):
    stored = api.post(
        "/users/u1/facts", {"text": "User's name is Noor Haddad.", "key": "name", "category": "identity"}
    ).json()
    assert stored["confidence"] == 0.4
    fake_llm.script(reply(add=[add("User's name is Noor Fischer.", "name", "identity", ["Noor Fischer"], 0.97)]))
    turns.post("Please call me Noor Fischer from now on, I insist.", turn_id="t1")
    state = turns.get("t1")
    assert state["status"] == "done", state
    assert state["outcome"]["superseded"] == [] and len(state["outcome"]["pending"]) == 1
    live = api.get("/users/u1/facts").json()["items"]
    assert [f["text"] for f in live] == ["User's name is Noor Haddad."]
    pending = Fact.objects.get(status=Status.PENDING)
    assert pending.text == "User's name is Noor Fischer." and pending.confidence == 0.4
    assert not FactHistory.objects.filter(action="supersede").exists()


def test_a_models_confidence_on_a_new_health_fact_counts_as_a_first_mention(api, turns, fake_llm):
    fake_llm.script(reply(add=[add("User has type 1 diabetes.", "diabetes", "health", [], 0.99)]))
    turns.post("I have type 1 diabetes, for sure.", turn_id="t1")
    assert Fact.objects.live().get().confidence == 0.4


def test_a_models_confidence_still_counts_for_a_low_risk_fact(api, turns, fake_llm):
    fake_llm.script(reply(add=[add("User prefers tea.", "drink", "soft_preference", [], 0.7)]))
    turns.post("I prefer tea.", turn_id="t1")
    assert Fact.objects.live().get().confidence == 0.7


def test_a_supersede_naming_an_unknown_id_keeps_the_statement_as_an_add(api, turns, fake_llm):
    fake_llm.script(
        reply(supersede=[{"id": "f7", "text": "User bakes sourdough every Sunday.", "key": "baking", "category": None}])
    )
    turns.post("I bake sourdough every Sunday now.", turn_id="t1")
    state = turns.get("t1")
    assert state["status"] == "done", state
    assert state["outcome"]["ignored_ids"] == ["f7"]
    live = api.get("/users/u1/facts").json()["items"]
    assert [(f["text"], f["key"], f["category"]) for f in live] == [
        ("User bakes sourdough every Sunday.", "baking", "other")
    ]
    assert state["outcome"]["added"] == [live[0]["id"]]


def test_a_supersede_naming_an_unknown_id_goes_through_de_duplication(api, turns, fake_llm):
    first = api.post("/users/u1/facts", {"text": "User bakes sourdough every Sunday.", "key": "baking"}).json()
    fake_llm.script(reply(supersede=[{"id": "f9", "text": "User bakes sourdough every Sunday.", "key": "baking"}]))
    turns.post("I bake sourdough every Sunday now.", turn_id="t1")
    outcome = turns.get("t1")["outcome"]
    assert outcome["ignored_ids"] == ["f9"] and outcome["duplicates"] == [first["id"]]
    assert Fact.objects.count() == 1 and Fact.objects.get().mention_count == 2


def _pending_move_with_an_edge(api, turns, fake_llm):
    api.post(
        "/users/u1/facts",
        {"text": "User lives in Rome.", "key": "home_city", "category": "identity", "confidence": 0.95},
    )
    fake_llm.script(
        reply(
            add=[add("User lives in Paris.", "home_city", "identity", ["Paris"])],
            edges=[{"src": "User", "relation": "lives_in", "dst": "Paris"}],
        )
    )
    turns.post("I live in Paris now.", turn_id="t1")
    return Fact.objects.get(status=Status.PENDING)


def test_an_edge_from_a_pending_change_stays_closed_when_staff_reject_it(api, turns, fake_llm):
    from facts import services
    from facts.models import Edge

    pending = _pending_move_with_an_edge(api, turns, fake_llm)
    assert not Edge.objects.filter(valid_to=None).exists()
    assert Edge.objects.get().fact == pending
    services.pending_reject(fact=pending, actor=services.SYSTEM)
    assert not Edge.objects.filter(valid_to=None).exists()


def test_an_edge_from_a_pending_change_opens_when_staff_approve_it(api, turns, fake_llm):
    from facts import services
    from facts.models import Edge

    pending = _pending_move_with_an_edge(api, turns, fake_llm)
    approved = services.pending_approve(fact=pending, actor=services.SYSTEM)
    edge = Edge.objects.get(valid_to=None)
    assert edge.fact == approved and edge.dst.name == "paris" and edge.valid_from == approved.valid_from


def test_health_reports_the_extractor_the_workers_ran_not_this_hosts_settings(api, turns, fake_llm, settings):
    fake_llm.script(reply(add=[add("User prefers tea.", "drink", "soft_preference")]))
    turns.post("I prefer tea.", turn_id="t1")
    settings.OPENAI_API_KEY = ""  # the web host has no key; the LLM worker has one
    extractor = api.get("/health").json()["extractor"]
    assert extractor["active"] == "llm" and extractor["configured_here"] == "rules"
    assert extractor["reported"]["extractor"].startswith("llm")
    accepted = turns.post("Hi there!", turn_id="t2")
    assert accepted["extractor"] == "llm"
