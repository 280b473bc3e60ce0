from __future__ import annotations

import pytest

from facts import services
from facts.models import DeletionReceipt, Fact, FactHistory, Status


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


@pytest.mark.parametrize("key", ["", "!!!", "  ", "___"])
def test_delete_by_a_key_that_normalises_to_nothing_is_422_and_forgets_nothing(api, key):
    # Facts stored without a key have the key "": an empty key must never select them all.
    api.post("/users/u1/facts", {"text": "User likes opera."})
    api.post("/users/u1/facts", {"text": "User plays chess."})
    api.post("/users/u1/facts", {"text": "User lives in Rome.", "key": "home_city"})
    r = api.delete("/users/u1/facts", key=key)
    # Refused by the schema's pattern (errors name the key) or by the service (rule key_required).
    assert r.status_code == 422
    body = r.json()
    assert body.get("rule") == "key_required" or any(e["loc"][-1] == "key" for e in body["errors"]), body
    assert Fact.objects.count() == 3 and not DeletionReceipt.objects.exists()


def test_delete_by_key_takes_the_words_out_of_the_recall_index(api, django_capture_on_commit_callbacks):
    from recall import fts, vec

    with django_capture_on_commit_callbacks(execute=True):
        api.post("/users/u1/facts", {"text": "User hides a zqvault key.", "key": "vault"})
        api.post("/users/u1/facts", {"text": "User likes opera."})
    user_pk = Fact.objects.first().user_id
    assert (fts.count_user(user_pk), vec.count_user(user_pk)) == (2, 2)
    with django_capture_on_commit_callbacks(execute=True):
        assert api.delete("/users/u1/facts", key="vault").json() == {"deleted": 1}
    # Django sets a deleted row's pk to None: the index sync must have been given the ids first.
    assert (fts.count_user(user_pk), vec.count_user(user_pk)) == (1, 1)


def test_expire_sets_valid_to_without_a_replacement(api):
    fact = api.post("/users/u1/facts", {"text": "User lives in Berlin.", "key": "home_city"}).json()
    expired = services.fact_expire(fact=Fact.objects.get(uuid=fact["id"]), actor=services.SYSTEM, reason="moved out")
    assert expired.status == Status.EXPIRED and expired.valid_to is not None
    assert api.get("/users/u1/facts").json()["items"] == []
    assert [e["action"] for e in api.get(f"/facts/{fact['id']}/history").json()] == ["insert", "expire"]


def test_a_forgotten_fact_leaves_no_words_in_the_profile_or_the_export(api):
    fact = api.post("/users/u1/facts", {"text": "User has a heart murmur.", "category": "health"}).json()
    api.post("/users/u1/facts", {"text": "User likes opera.", "category": "soft_preference"})
    profile = api.get("/users/u1/profile")
    assert "heart murmur" in profile.content.decode()
    assert api.delete(f"/facts/{fact['id']}").status_code == 204
    profile = api.get("/users/u1/profile")
    assert profile.status_code == 200
    assert "heart murmur" not in profile.content.decode() and "User likes opera." in profile.content.decode()
    export = api.get("/users/u1/export")
    assert export.status_code == 200
    assert "heart murmur" not in export.content.decode() and "User likes opera." in export.content.decode()


def test_delete_by_key_leaves_no_words_in_the_profile(api):
    api.post("/users/u1/facts", {"text": "User owes the bank 4000 euros.", "key": "debt", "category": "finance"})
    assert "4000 euros" in api.get("/users/u1/profile").content.decode()
    assert api.delete("/users/u1/facts", key="debt").json() == {"deleted": 1}
    assert "4000 euros" not in api.get("/users/u1/profile").content.decode()
    assert "4000 euros" not in api.get("/users/u1/export").content.decode()


def test_delete_by_key_through_the_api_keeps_a_deletion_receipt_without_the_key(api, alice):
    from facts.models import DeletionReceipt

    api.post("/users/u1/facts", {"text": "User lives in Rome.", "key": "home_city"})
    assert api.delete("/users/u1/facts", key="home_city").json() == {"deleted": 1}
    receipt = DeletionReceipt.objects.get()
    assert receipt.scope == "key" and receipt.counts == {"facts": 1} and receipt.actor_kind == "api_key"
    assert "home_city" not in str(receipt.counts) + receipt.user_hash
