"""mem0ai's own MemoryClient (2.2.1), unchanged, against the mem0-compatible routes of a live server."""

from __future__ import annotations

import httpx
import pytest
from mem0 import MemoryClient
from mem0.exceptions import AuthenticationError, MemoryNotFoundError, ValidationError

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def client(live, key: str) -> MemoryClient:
    return MemoryClient(api_key=key, host=live.base)


def raw(live, method: str, path: str, key: str, scheme: str = "Token", **kwargs) -> httpx.Response:
    headers = {"Authorization": f"{scheme} {key}"}
    return httpx.request(method, f"{live.base}{path}", headers=headers, timeout=120, **kwargs)


def test_the_client_starts_against_our_ping(live):
    mem0 = client(live, live.alice)
    assert mem0.org_id and mem0.project_id  # the client requires both to start
    with pytest.raises(ValueError, match="Unauthorized"):
        client(live, "mem_not_a_key")


def test_add_with_inference_extracts_facts_from_the_turn(live):
    mem0 = client(live, live.alice)
    added = mem0.add(
        [{"role": "user", "content": "I live in Porto"}, {"role": "assistant", "content": "Nice city!"}],
        filters={"user_id": "m0-rui"},
    )
    [event] = added["results"]
    assert event["status"] == "SUCCEEDED" and event["event_id"]  # extraction ran eagerly in the server
    polled = raw(live, "GET", f"/v1/event/{event['event_id']}/", live.alice).json()
    assert polled["status"] == "SUCCEEDED" and any("Porto" in m["memory"] for m in polled["results"])
    listed = mem0.get_all(filters={"user_id": "m0-rui"})
    assert listed["count"] == 1 and "Porto" in listed["results"][0]["memory"]


def test_the_memory_lifecycle_through_the_client(live):
    mem0 = client(live, live.alice)
    stored = mem0.add("Prefers window seats", filters={"user_id": "m0-ana"}, infer=False)
    [result] = stored["results"]
    assert result["event"] == "ADD" and result["memory"] == "Prefers window seats"
    memory_id = result["id"]

    found = mem0.search("window seats", filters={"user_id": "m0-ana"}, top_k=3)
    assert found["results"][0]["id"] == memory_id and found["results"][0]["score"] > 0
    assert mem0.get(memory_id)["memory"] == "Prefers window seats"

    updated = mem0.update(memory_id, text="Prefers aisle seats")
    assert updated["memory"] == "Prefers aisle seats" and updated["id"] != memory_id  # superseded, not overwritten
    assert mem0.get(memory_id)["status"] == "superseded"
    history = mem0.history(updated["id"])
    assert ("UPDATE", "Prefers window seats", "Prefers aisle seats") in [
        (h["event"], h["old_memory"], h["new_memory"]) for h in history
    ]

    assert mem0.delete(updated["id"])["message"] == "Memory deleted successfully!"
    with pytest.raises(MemoryNotFoundError):
        mem0.get(updated["id"])
    assert mem0.get_all(filters={"user_id": "m0-ana"})["count"] == 0


DOG = "We just adopted a dog called Biscuit."


def test_search_answers_facts_only_unless_episodes_are_asked_for(live):
    mem0 = client(live, live.alice)
    [event] = mem0.add([{"role": "user", "content": DOG}], filters={"user_id": "m0-dog"})["results"]
    mem0.add(
        [{"role": "user", "content": "I'm training for the Berlin marathon in April."}], filters={"user_id": "m0-dog"}
    )
    mem0.add("Prefers long walks", filters={"user_id": "m0-dog"}, infer=False)

    plain = mem0.search("what is my dog called?", filters={"user_id": "m0-dog"}, top_k=5)
    assert set(plain) == {"results"} and all("memory" in r for r in plain["results"])

    both = mem0.search("what is my dog called?", filters={"user_id": "m0-dog"}, top_k=5, sources=["facts", "episodes"])
    assert both["results"] == plain["results"]  # the memories are the same answer, opt-in or not
    top = [e["text"] for e in both["episodes"][:3]]
    assert DOG in top, both["episodes"]
    dog = next(e for e in both["episodes"] if e["text"] == DOG)
    assert dog["turn_id"] == event["event_id"] and dog["session_id"] == "mem0" and dog["occurred_at"]
    assert both["episodes_withheld"] == 0

    only = mem0.search("dog", filters={"user_id": "m0-dog"}, sources=["episodes"])
    assert only["results"] == [] and DOG in [e["text"] for e in only["episodes"]]
    assert mem0.search("dog", filters={"user_id": "m0-nobody"}, sources=["episodes"])["episodes"] == []


@pytest.mark.parametrize("sources", [["chats"], [], ["facts", "episodes", "facts"], "episodes"])
def test_bad_sources_are_refused_with_a_reason(live, sources):
    with pytest.raises(ValidationError, match="sources"):
        client(live, live.alice).search("dog", filters={"user_id": "m0-dog"}, sources=sources)


def test_delete_all_and_delete_users_need_admin_and_erase(live):
    admin, writer = client(live, live.alice), client(live, live.alice_write)
    writer.add("Drives an electric car", filters={"user_id": "m0-zoe"}, infer=False)
    writer.add("Plays the cello", filters={"user_id": "m0-zoe"}, infer=False)
    with pytest.raises(AuthenticationError, match="admin"):
        writer.delete_all(user_id="m0-zoe")
    with pytest.raises(AuthenticationError, match="admin"):
        writer.delete_users(user_id="m0-zoe")
    assert writer.get_all(filters={"user_id": "m0-zoe"})["count"] == 2

    assert admin.delete_all(user_id="m0-zoe")["message"] == "Memories deleted successfully!"
    assert admin.get_all(filters={"user_id": "m0-zoe"})["count"] == 0
    admin.delete_users(user_id="m0-zoe")
    with pytest.raises(MemoryNotFoundError):  # the user itself is gone now
        admin.delete_all(user_id="m0-zoe")


def test_another_tenant_sees_nothing(live):
    alice, bob = client(live, live.alice), client(live, live.bob)
    memory_id = alice.add("Allergic to peanuts", filters={"user_id": "m0-private"}, infer=False)["results"][0]["id"]
    with pytest.raises(MemoryNotFoundError):
        bob.get(memory_id)
    with pytest.raises(MemoryNotFoundError):
        bob.update(memory_id, text="Not allergic")
    with pytest.raises(MemoryNotFoundError):
        bob.delete(memory_id)
    assert bob.get_all(filters={"user_id": "m0-private"})["count"] == 0
    assert bob.search("peanuts", filters={"user_id": "m0-private"})["results"] == []
    assert alice.get(memory_id)["memory"] == "Allergic to peanuts"


def test_a_read_only_key_cannot_add(live):
    reader = client(live, live.alice_read)
    with pytest.raises(AuthenticationError, match="write"):
        reader.add("Likes opera", filters={"user_id": "m0-ro"}, infer=False)
    assert reader.get_all(filters={"user_id": "m0-ro"})["count"] == 0


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ({"messages": [{"role": "user", "content": "Likes tea"}]}, "exactly one user"),
        ({"messages": [{"role": "user", "content": "Likes tea"}], "filters": {"agent_id": "a1"}}, "agent_id"),
        ({"messages": [{"role": "user", "content": "Likes tea"}], "filters": {"user_id": "a/b"}}, "user_id must be"),
        ({"messages": [{"role": "assistant", "content": "Hello"}], "filters": {"user_id": "m0-bad"}}, "'user'"),
        ({"messages": [], "filters": {"user_id": "m0-bad"}}, "messages"),
        ({"messages": [{"role": "robot", "content": "x"}], "filters": {"user_id": "m0-bad"}}, "role"),
        (
            {
                "messages": [{"role": "user", "content": "Likes \x00 tea"}],
                "filters": {"user_id": "m0-bad"},
                "infer": False,
            },
            "control_characters",
        ),
    ],
)
def test_a_bad_add_is_refused_with_a_reason_and_writes_nothing(live, payload, reason):
    answer = raw(live, "POST", "/v3/memories/add/", live.alice, json=payload)
    assert answer.status_code == 422, answer.text
    assert reason in answer.text
    assert client(live, live.alice).get_all(filters={"user_id": "m0-bad"})["count"] == 0


def test_other_bad_requests_are_clear_errors(live):
    mem0 = client(live, live.alice)
    with pytest.raises(ValidationError, match="user_id"):
        mem0.get_all(filters={"app_id": "x"})
    with pytest.raises(MemoryNotFoundError):
        mem0.get("not-a-uuid")
    with pytest.raises(ValidationError, match="Name the user"):
        mem0.delete_all()
    assert raw(live, "DELETE", "/v2/entities/agent/a1/", live.alice).status_code == 422
    memory_id = mem0.add("Has two kids", filters={"user_id": "m0-meta"}, infer=False)["results"][0]["id"]
    refused = raw(live, "PUT", f"/v1/memories/{memory_id}/", live.alice, json={"metadata": {"a": 1}})
    assert refused.status_code == 422 and "text" in refused.json()["detail"]
    assert mem0.get(memory_id)["memory"] == "Has two kids"


def test_token_and_bearer_are_accepted_on_these_routes_only(live):
    assert raw(live, "GET", "/v1/ping/", live.alice, scheme="Token").status_code == 200
    assert raw(live, "GET", "/v1/ping/", live.alice, scheme="Bearer").status_code == 200
    assert raw(live, "GET", "/v1/ping/", live.alice, scheme="Basic").status_code == 401
    # /api/v1 keeps its documented Bearer scheme.
    assert raw(live, "GET", "/api/v1/metrics", live.alice, scheme="Token").status_code == 401
    assert raw(live, "GET", "/api/v1/metrics", live.alice, scheme="Bearer").status_code == 200
