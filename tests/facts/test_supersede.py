from __future__ import annotations

from facts.models import Fact, Status


def test_a_patch_chain_is_read_back_whole_through_the_history_route(api):
    first = api.post("/users/u1/facts", {"text": "User lives in Berlin.", "key": "home_city"}).json()
    second = api.patch(f"/facts/{first['id']}", {"text": "User lives in Munich."})
    assert second.status_code == 200
    second = second.json()
    third = api.patch(f"/facts/{second['id']}", {"text": "User lives in Vienna."}).json()

    old = api.get(f"/facts/{first['id']}").json()
    assert old["status"] == "superseded" and old["valid_to"] is not None
    assert old["superseded_by"] == second["id"]
    assert third["status"] == "active" and third["key"] == "home_city"

    for fact_id in (first["id"], second["id"], third["id"]):
        entries = api.get(f"/facts/{fact_id}/history").json()
        texts = [(e["action"], (e["after"] or {}).get("text")) for e in entries]
        assert texts == [
            ("insert", "User lives in Berlin."),
            ("insert", "User lives in Munich."),
            ("supersede", "User lives in Berlin."),
            ("insert", "User lives in Vienna."),
            ("supersede", "User lives in Munich."),
        ]
    live = api.get("/users/u1/facts").json()["items"]
    assert [f["text"] for f in live] == ["User lives in Vienna."]
    everything = api.get("/users/u1/facts", include_retired="true").json()["items"]
    assert len(everything) == 3


def test_a_supersession_keeps_the_retired_row_true_for_its_time(api):
    first = api.post("/users/u1/facts", {"text": "User drives a Golf."}).json()
    api.patch(f"/facts/{first['id']}", {"text": "User drives a Polo."})
    old = Fact.objects.get(uuid=first["id"])
    new = Fact.objects.get(text="User drives a Polo.")
    assert old.valid_to == new.valid_from
    assert Fact.objects.valid_at(old.valid_from).get() == old
    assert Fact.objects.valid_at(new.valid_from).get() == new


def test_patching_a_retired_fact_is_409_and_changes_nothing(api):
    first = api.post("/users/u1/facts", {"text": "User drives a Golf."}).json()
    api.patch(f"/facts/{first['id']}", {"text": "User drives a Polo."})
    r = api.patch(f"/facts/{first['id']}", {"text": "User drives a Fiat."})
    assert r.status_code == 409
    assert Fact.objects.count() == 2
    assert Fact.objects.filter(status=Status.ACTIVE).get().text == "User drives a Polo."
