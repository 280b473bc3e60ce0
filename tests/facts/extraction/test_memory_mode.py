"""A person's memory mode (issue 37): auto, confirm, read_only, off, over REST, and what each
does to turns, direct stores, corrections and recall; every change audited, bad input refused."""

from __future__ import annotations

import pytest

from facts.models import Fact, MemoryModeChange, MemoryUser, Status, Turn, TurnState
from tests.facts.extraction.conftest import add, reply


def _set(api, mode, user="u1", expect=200):
    r = api.client.put(
        f"/api/v1/users/{user}/memory-mode", data={"mode": mode}, content_type="application/json", headers=api.headers
    )
    assert r.status_code == expect, r.content
    return r.json()


def test_a_new_person_is_auto_and_setting_a_mode_is_audited_with_who_and_from_what(api):
    assert api.get("/users/u1/memory-mode").status_code == 404
    answer = _set(api, "read_only")
    assert answer["mode"] == "read_only" and answer["changed"] is True
    again = _set(api, "read_only")
    assert again["changed"] is False
    _set(api, "auto")
    history = api.get("/users/u1/memory-mode").json()["history"]
    assert [(h["before"], h["after"]) for h in history] == [("auto", "read_only"), ("read_only", "auto")]
    assert all(h["actor_kind"] == "api_key" and h["actor_id"] for h in history)


@pytest.mark.parametrize("body", [{"mode": "paused"}, {"mode": ""}, {"mode": 1}, {"mode": None}, {}, ["off"]])
def test_an_unknown_mode_is_a_422_and_writes_nothing(api, body):
    r = api.client.put("/api/v1/users/u1/memory-mode", data=body, content_type="application/json", headers=api.headers)
    assert r.status_code == 422, r.content
    assert not MemoryUser.objects.exists() and not MemoryModeChange.objects.exists()


def test_another_tenant_cannot_read_a_persons_mode(api, bob_api):
    _set(api, "off")
    assert bob_api.get("/users/u1/memory-mode").status_code == 404


def test_read_only_withholds_turns_and_refuses_direct_stores_but_recall_works(api, turns, fake_llm):
    fact = api.post("/users/u1/facts", {"text": "User likes green tea.", "key": "drink"}).json()
    _set(api, "read_only")
    answer = turns.post("I now prefer black coffee.", turn_id="t1")
    assert answer["remembered"] is False and answer["reason"] == "read_only"
    assert len(fake_llm.requests) == 0 and Turn.objects.get(turn_id="t1").user_input == ""
    refused = api.post("/users/u1/facts", {"text": "User likes coffee."})
    assert refused.status_code == 409 and refused.json()["rule"] == "memory_mode", refused.content
    patched = api.patch(f"/facts/{fact['id']}", {"text": "User likes coffee."})
    assert patched.status_code == 409, patched.content
    hits = api.post("/users/u1/recall", {"query": "tea", "mode": "lexical"}).json()
    assert [h["fact"]["id"] for h in hits["items"]] == [fact["id"]]
    assert list(Fact.objects.values_list("text", flat=True)) == ["User likes green tea."]


def test_off_stores_nothing_and_recalls_nothing_with_a_reason(api, turns, fake_llm):
    api.post("/users/u1/facts", {"text": "User likes green tea.", "key": "drink"})
    _set(api, "off")
    assert turns.post("I like jazz.", turn_id="t1")["reason"] == "off"
    recalled = api.post("/users/u1/recall", {"query": "tea", "mode": "lexical"})
    assert recalled.status_code == 200 and recalled.json() == {
        "items": [],
        "mode": "lexical",
        "degraded": False,
        "reason": "memory_off",
    }
    block = api.post("/users/u1/context", {"query": "tea", "max_tokens": 500}).json()
    assert block["text"] == "" and block["sections"] == [] and block["reason"] == "memory_off"
    assert len(fake_llm.requests) == 0
    _set(api, "auto")  # turned back on, what was known is recalled again
    assert len(api.post("/users/u1/recall", {"query": "tea", "mode": "lexical"}).json()["items"]) == 1


def test_confirm_sends_every_extracted_change_to_the_queue(api, turns, fake_llm):
    _set(api, "confirm")
    fake_llm.script(reply(add=[add("User likes jazz.", "music")]))
    answer = turns.post("I like jazz.", turn_id="t1")
    assert answer["remembered"] is True
    fact = Fact.objects.get(text="User likes jazz.")
    assert fact.status == Status.PENDING
    assert Turn.objects.get(turn_id="t1").outcome["pending"] == [str(fact.uuid)]
    assert api.post("/users/u1/recall", {"query": "jazz", "mode": "lexical"}).json()["items"] == []


def test_confirm_holds_a_direct_store_and_a_correction_until_staff_approve(api):
    live = api.post("/users/u1/facts", {"text": "User lives in Oslo.", "key": "home_city"}).json()
    _set(api, "confirm")
    held = api.post("/users/u1/facts", {"text": "User likes chess."}).json()
    assert held["status"] == "pending_confirmation"
    corrected = api.patch(f"/facts/{live['id']}", {"text": "User lives in Bergen."}).json()
    assert corrected["status"] == "pending_confirmation" and corrected["replaces"] == live["id"]
    assert Fact.objects.get(uuid=live["id"]).status == Status.ACTIVE  # not superseded yet

    from facts import services
    from tests.facts.dashboard_helpers import staff_of

    staff = services.Actor.staff(staff_of(None, "ines"))
    services.pending_approve(fact=Fact.objects.get(uuid=corrected["id"]), actor=staff)
    assert Fact.objects.get(uuid=live["id"]).status == Status.SUPERSEDED


def test_a_turn_accepted_before_the_mode_went_off_reaches_no_extractor(
    api, fake_llm, django_capture_on_commit_callbacks
):
    # Queued (not yet run) in auto; the person turns memory off; then the worker gets it.
    with django_capture_on_commit_callbacks(execute=False) as queued:
        r = api.post("/users/u1/turns", {"session_id": "s1", "turn_id": "t1", "user_input": "I like jazz."})
    assert r.status_code == 202
    _set(api, "off")
    for callback in queued:
        callback()
    turn = Turn.objects.get(turn_id="t1")
    assert turn.state == TurnState.SKIPPED and "memory mode off" in turn.outcome["reason"]
    assert len(fake_llm.requests) == 0


def test_erase_takes_the_mode_audit_and_export_shows_it(api):
    _set(api, "confirm")
    export = api.get("/users/u1/export").json()
    assert export["memory_mode"] == "confirm" and export["memory_mode_changes"][0]["after"] == "confirm"
    receipt = api.delete("/users/u1").json()
    assert receipt["counts"]["mode_changes"] == 1 and not MemoryModeChange.objects.exists()
