"""mem0's self-hosted REST server's routes (mem0 server/main.py: /memories, /search, ...), driven
with plain HTTP as mem0's documentation shows, against a live server: same tenancy and scopes."""

from __future__ import annotations

import httpx
import pytest

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def call(live, method: str, path: str, key: str | None, **kwargs) -> httpx.Response:
    headers = {"X-API-Key": key} if key else {}
    return httpx.request(method, f"{live.base}{path}", headers=headers, timeout=120, **kwargs)


def test_the_self_hosted_memory_lifecycle_with_an_x_api_key(live):
    key = live.alice
    added = call(
        live,
        "POST",
        "/memories",
        key,
        json={"messages": [{"role": "user", "content": "Prefers window seats"}], "user_id": "sh-ana", "infer": False},
    )
    assert added.status_code == 200, added.text
    [memory] = added.json()["results"]
    assert memory["event"] == "ADD" and memory["memory"] == "Prefers window seats"

    listed = call(live, "GET", "/memories", key, params={"user_id": "sh-ana"}).json()
    assert [m["id"] for m in listed["results"]] == [memory["id"]]
    found = call(live, "POST", "/search", key, json={"query": "window seats", "filters": {"user_id": "sh-ana"}})
    assert found.json()["results"][0]["id"] == memory["id"] and found.json()["results"][0]["score"] > 0
    top_level = call(live, "POST", "/search", key, json={"query": "window seats", "user_id": "sh-ana", "top_k": 1})
    assert [m["id"] for m in top_level.json()["results"]] == [memory["id"]]
    assert call(live, "GET", f"/memories/{memory['id']}", key).json()["memory"] == "Prefers window seats"

    updated = call(live, "PUT", f"/memories/{memory['id']}", key, json={"text": "Prefers aisle seats"}).json()
    assert updated["message"] == "Memory updated successfully!" and updated["id"] != memory["id"]  # superseded
    history = call(live, "GET", f"/memories/{updated['id']}/history", key).json()
    assert ("UPDATE", "Prefers window seats", "Prefers aisle seats") in [
        (h["event"], h["old_memory"], h["new_memory"]) for h in history
    ]
    deleted = call(live, "DELETE", f"/memories/{updated['id']}", key)
    assert deleted.json() == {"message": "Memory deleted successfully"}
    assert call(live, "GET", f"/memories/{updated['id']}", key).status_code == 404


def test_add_with_inference_extracts_in_the_background_and_lists(live):
    added = call(
        live,
        "POST",
        "/memories",
        live.alice,
        json={"messages": [{"role": "user", "content": "I live in Porto"}], "user_id": "sh-rui"},
    )
    [event] = added.json()["results"]
    assert event["event_id"] and event["status"] in {"PENDING", "SUCCEEDED"}
    listed = call(live, "GET", "/memories", live.alice, params={"user_id": "sh-rui"}).json()["results"]
    assert any("Porto" in m["memory"] for m in listed)  # extraction ran eagerly in this test server


def test_bearer_works_too_and_no_key_is_401(live):
    bearer = httpx.get(
        f"{live.base}/memories", params={"user_id": "sh-none"}, headers={"Authorization": f"Bearer {live.alice}"}
    )
    assert bearer.status_code == 200 and bearer.json() == {"results": []}
    assert call(live, "GET", "/memories", None, params={"user_id": "sh-none"}).status_code == 401
    assert call(live, "GET", "/memories", "mem_not_a_key", params={"user_id": "sh-none"}).status_code == 401


def test_another_tenants_memory_is_404_and_scopes_hold(live):
    [memory] = call(
        live,
        "POST",
        "/memories",
        live.alice,
        json={"messages": [{"role": "user", "content": "Owns a red bicycle"}], "user_id": "sh-eva", "infer": False},
    ).json()["results"]
    for method, path in (("GET", f"/memories/{memory['id']}"), ("DELETE", f"/memories/{memory['id']}")):
        assert call(live, method, path, live.bob).status_code == 404
    assert call(live, "GET", f"/memories/{memory['id']}/history", live.bob).status_code == 404
    assert (
        call(
            live,
            "POST",
            "/memories",
            live.alice_read,
            json={"messages": [{"role": "user", "content": "x"}], "user_id": "sh-eva"},
        ).status_code
        == 403
    )
    # Deleting a user's memories in bulk needs admin, as on the self-hosted server.
    assert call(live, "DELETE", "/memories", live.alice_write, params={"user_id": "sh-eva"}).status_code == 403
    wiped = call(live, "DELETE", "/memories", live.alice, params={"user_id": "sh-eva"})
    assert wiped.json() == {"message": "All relevant memories deleted"}
    assert call(live, "GET", "/memories", live.alice, params={"user_id": "sh-eva"}).json() == {"results": []}


def test_refusals_say_why(live):
    no_user = call(live, "GET", "/memories", live.alice)
    assert no_user.status_code == 422 and no_user.json()["rule"] == "user_id"
    agent = call(
        live, "POST", "/memories", live.alice, json={"messages": [{"role": "user", "content": "x"}], "agent_id": "bot"}
    )
    assert agent.status_code == 422 and "user_id" in agent.json()["detail"]
    assert call(live, "DELETE", "/memories", live.alice).status_code == 422
    reset = call(live, "POST", "/reset", live.alice)
    assert reset.status_code == 422 and reset.json()["rule"] == "reset"
    assert call(live, "POST", "/reset", live.alice_write).status_code == 403


def test_a_body_the_platform_route_refuses_is_a_422_naming_the_field(live):
    bad_role = call(
        live,
        "POST",
        "/memories",
        live.alice,
        json={"messages": [{"role": "robot", "content": "x"}], "user_id": "sh-zed"},
    )
    assert bad_role.status_code == 422 and bad_role.json()["rule"] == "messages"
    too_many = call(live, "POST", "/search", live.alice, json={"query": "x", "user_id": "sh-zed", "top_k": 5000})
    assert too_many.status_code == 422 and too_many.json()["rule"] == "top_k"
