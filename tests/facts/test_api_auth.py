"""Every fact route: no key / revoked key -> 401, missing scope -> 403, other tenant -> 404."""

from __future__ import annotations

import pytest

from facts.models import ApiKey, Fact, FactHistory
from tests.base import ApiClient, issue_key

# (method, path template, body, scope needed)
ROUTES = [
    ("post", "/users/{user}/facts", {"text": "User likes tea."}, "write"),
    ("get", "/users/{user}/facts", None, "read"),
    ("delete", "/users/{user}/facts?key=drink", None, "write"),
    ("get", "/facts/{fact}", None, "read"),
    ("patch", "/facts/{fact}", {"text": "User likes green tea."}, "write"),
    ("delete", "/facts/{fact}", None, "write"),
    ("get", "/facts/{fact}/history", None, "read"),
]


def _call(client: ApiClient, method: str, path: str, body):
    if method in ("post", "patch"):
        return getattr(client, method)(path, body)
    if "?" in path:
        path, query = path.split("?", 1)
        params = dict(p.split("=", 1) for p in query.split("&"))
        return getattr(client, method)(path, **params)
    return getattr(client, method)(path)


@pytest.fixture
def bob_fact(bob_api):
    r = bob_api.post("/users/bob-user/facts", {"text": "User drinks coffee.", "key": "drink"})
    assert r.status_code == 201
    return r.json()


def _path(template: str, fact: dict) -> str:
    return template.format(user="bob-user", fact=fact["id"])


@pytest.mark.parametrize("method,template,body,scope", ROUTES)
def test_it_answers_401_without_a_key(bob_fact, method, template, body, scope):
    r = _call(ApiClient(None), method, _path(template, bob_fact), body)
    assert r.status_code == 401
    assert "detail" in r.json()


@pytest.mark.parametrize("method,template,body,scope", ROUTES)
def test_it_answers_401_for_a_revoked_key(bob, bob_fact, method, template, body, scope):
    for key in ApiKey.objects.filter(tenant=bob.tenant):
        key.revoke()
    r = _call(ApiClient(bob.raw_key), method, _path(template, bob_fact), body)
    assert r.status_code == 401


@pytest.mark.parametrize("method,template,body,scope", ROUTES)
def test_it_answers_403_when_the_key_lacks_the_scope(bob, bob_fact, method, template, body, scope):
    other = "read" if scope == "write" else "write"
    r = _call(ApiClient(issue_key(bob.tenant, [other])), method, _path(template, bob_fact), body)
    assert r.status_code == 403
    assert scope in r.json()["detail"]


@pytest.mark.parametrize("method,template,body,scope", [r for r in ROUTES if r[0] != "post"])
def test_it_answers_404_for_another_tenants_user_or_fact(api, bob_fact, method, template, body, scope):
    before = list(Fact.objects.values_list("uuid", "text", "status"))
    history = FactHistory.objects.count()
    r = _call(api, method, _path(template, bob_fact), body)
    assert r.status_code == 404, r.content
    assert list(Fact.objects.values_list("uuid", "text", "status")) == before
    assert FactHistory.objects.count() == history


def test_writing_to_the_same_user_id_in_another_tenant_touches_nothing_of_the_first(api, bob_fact):
    r = api.post("/users/bob-user/facts", {"text": "User drinks tea.", "key": "drink"})
    assert r.status_code == 201
    bobs = Fact.objects.get(uuid=bob_fact["id"])
    assert bobs.is_live and bobs.text == "User drinks coffee."
    listed = api.get("/users/bob-user/facts").json()["items"]
    assert [f["text"] for f in listed] == ["User drinks tea."]


def test_a_garbage_bearer_token_is_401(bob_fact):
    r = _call(ApiClient("mem_nothing_here"), "get", "/users/bob-user/facts", None)
    assert r.status_code == 401


def test_an_admin_key_carries_every_scope(bob, bob_fact):
    client = ApiClient(issue_key(bob.tenant, ["admin"]))
    assert client.get("/users/bob-user/facts").status_code == 200
    assert client.post("/users/bob-user/facts", {"text": "User plays chess."}).status_code == 201


def test_a_token_scheme_key_is_401_with_a_hint_to_send_it_as_bearer(bob, bob_fact):
    # mem0's Platform clients send `Token <key>`; /api/v1 takes Bearer only and says so.
    client = ApiClient(None)
    client.headers = {"Authorization": f"Token {bob.raw_key}"}
    r = client.get("/users/bob-user/facts")
    assert r.status_code == 401 and "Bearer <key>" in r.json()["detail"]
    assert ApiClient(None).get("/users/bob-user/facts").json() == {"detail": "Unauthorized"}
