from __future__ import annotations

from facts import services
from facts.models import Fact, FactHistory, Status


def test_forgetting_a_fact_deletes_it_and_keeps_an_audit_without_its_text(api):
    fact = api.post("/users/u1/facts", {"text": "User's secret hobby is taxidermy."}).json()
    r = api.delete(f"/facts/{fact['id']}")
    assert r.status_code == 204
    assert not Fact.objects.exists()
    entries = FactHistory.objects.filter(fact_uuid=fact["id"]).order_by("id")
    assert [e.action for e in entries] == ["insert", "delete"]
    for entry in entries:
        assert "taxidermy" not in str(entry.before) + str(entry.after) + entry.reason
    assert api.get(f"/facts/{fact['id']}").status_code == 404


def test_delete_by_key_forgets_the_whole_chain_and_nothing_else(api):
    first = api.post("/users/u1/facts", {"text": "User lives in Rome.", "key": "home_city"}).json()
    api.patch(f"/facts/{first['id']}", {"text": "User lives in Milan."})
    keep = api.post("/users/u1/facts", {"text": "User likes opera.", "key": "music"}).json()
    r = api.delete("/users/u1/facts", key="home_city")
    assert r.status_code == 200 and r.json() == {"deleted": 2}
    assert list(Fact.objects.values_list("uuid", flat=True)) == [Fact.objects.get(uuid=keep["id"]).uuid]


def test_delete_by_key_without_a_key_is_422(api):
    api.post("/users/u1/facts", {"text": "User likes opera."})
    assert api.delete("/users/u1/facts").status_code == 422
    assert Fact.objects.count() == 1


def test_expire_sets_valid_to_without_a_replacement(api):
    fact = api.post("/users/u1/facts", {"text": "User lives in Berlin.", "key": "home_city"}).json()
    expired = services.fact_expire(fact=Fact.objects.get(uuid=fact["id"]), actor=services.SYSTEM, reason="moved out")
    assert expired.status == Status.EXPIRED and expired.valid_to is not None
    assert api.get("/users/u1/facts").json()["items"] == []
    assert [e["action"] for e in api.get(f"/facts/{fact['id']}/history").json()] == ["insert", "expire"]
