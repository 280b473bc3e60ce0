"""DELETE /api/v1/users/{user_id} (admin scope) and GET /api/v1/users/{user_id}/export (read scope)."""

from __future__ import annotations

import pytest

from facts import privacy
from facts.models import DeletionReceipt, Fact, MemoryUser
from tests.base import ApiClient, issue_key


@pytest.fixture
def stored(api):
    r = api.post("/users/u-1/facts", {"text": "User plays the cello.", "key": "instrument"})
    assert r.status_code == 201
    return r.json()


def test_it_erases_a_user_and_returns_the_receipt(api, stored, alice):
    r = api.delete("/users/u-1")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["scope"] == "user" and body["counts"]["facts"] == 1 and body["counts"]["history"] == 1
    assert body["user_hash"] == privacy.user_hash(tenant_id=alice.tenant.pk, external_id="u-1")
    assert body["actor_kind"] == "api_key" and "u-1" not in r.content.decode()
    assert not MemoryUser.objects.filter(external_id="u-1").exists()
    assert DeletionReceipt.objects.filter(pk=body["id"], tenant=alice.tenant).exists()
    assert api.get("/users/u-1/facts").status_code == 404


def test_it_exports_a_user_as_one_json_document(api, stored):
    r = api.get("/users/u-1/export")
    assert r.status_code == 200
    body = r.json()
    assert body["user_id"] == "u-1" and body["facts"][0]["text"] == "User plays the cello."
    assert body["facts"][0]["history"][0]["action"] == "insert"


def test_it_answers_401_without_a_key_and_erases_nothing(stored):
    anonymous = ApiClient(None)
    assert anonymous.delete("/users/u-1").status_code == 401
    assert anonymous.get("/users/u-1/export").status_code == 401
    assert Fact.objects.filter(user__external_id="u-1").count() == 1


@pytest.mark.parametrize("scopes", [["read"], ["write"], ["read", "write"]])
def test_it_needs_the_admin_scope_to_erase(stored, alice, scopes):
    r = ApiClient(issue_key(alice.tenant, scopes)).delete("/users/u-1")
    assert r.status_code == 403 and "admin" in r.json()["detail"]
    assert Fact.objects.filter(user__external_id="u-1").count() == 1
    assert not DeletionReceipt.objects.exists()


def test_it_needs_the_read_scope_to_export(stored, alice):
    assert ApiClient(issue_key(alice.tenant, ["write"])).get("/users/u-1/export").status_code == 403
    assert ApiClient(issue_key(alice.tenant, ["read"])).get("/users/u-1/export").status_code == 200


def test_it_answers_404_for_another_tenants_user_and_erases_nothing(stored, bob_api):
    assert bob_api.delete("/users/u-1").status_code == 404
    assert bob_api.get("/users/u-1/export").status_code == 404
    assert Fact.objects.filter(user__external_id="u-1").count() == 1
    assert not DeletionReceipt.objects.exists()


def test_it_answers_404_for_an_unknown_user(api):
    assert api.delete("/users/nobody").status_code == 404
    assert api.get("/users/nobody/export").status_code == 404
