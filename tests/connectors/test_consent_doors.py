"""Consent through the other doors (issue 37): MCP's add_memory(remember=false) and
set_memory_mode, mem0's add with remember=false, and search answering nothing under `off`."""

from __future__ import annotations

import json

import pytest

from facts.models import Fact, MemoryModeChange, MemoryUser, Turn, TurnState
from tests.base import ApiClient
from tests.connectors.test_mcp_rate_limits import post, tool_call
from tests.connectors.test_mem0_routes import call

pytestmark = pytest.mark.django_db(transaction=True)


def _tool(alice, name, **arguments) -> dict:
    r = post(alice.raw_key, tool_call(name, **arguments))
    assert r.status_code == 200, r.content
    return r.json()["result"]


def _answer(result) -> dict:
    assert not result["isError"], result
    return json.loads(result["content"][0]["text"])


def test_mcp_add_memory_with_remember_false_withholds_the_turn(alice):
    answer = _answer(_tool(alice, "add_memory", user_id="m1", text="I live in Quillstone.", remember=False))
    assert answer["remembered"] is False and answer["reason"] == "caller" and answer["status"] == "withheld"
    turn = Turn.objects.get()
    assert turn.state == TurnState.WITHHELD and turn.user_input == "" and not Fact.objects.exists()


def test_mcp_add_memory_refuses_remember_false_with_store_directly_and_a_non_boolean(alice):
    both = _tool(alice, "add_memory", user_id="m1", text="User likes tea.", remember=False, store_directly=True)
    assert both["isError"] and "remember" in both["content"][0]["text"]
    typed = _tool(alice, "add_memory", user_id="m1", text="User likes tea.", remember="nope")
    assert typed["isError"]
    assert not MemoryUser.objects.exists() and not Fact.objects.exists()


def test_mcp_set_memory_mode_is_audited_and_off_empties_search_and_context(alice):
    ApiClient(alice.raw_key).post("/users/m1/facts", {"text": "User likes green tea."})
    answer = _answer(_tool(alice, "set_memory_mode", user_id="m1", mode="off"))
    assert answer == {"user_id": "m1", "mode": "off", "changed": True}
    change = MemoryModeChange.objects.get()
    assert (change.before, change.after, change.actor_kind) == ("auto", "off", "api_key")
    found = _answer(_tool(alice, "search_memories", user_id="m1", query="tea", mode="lexical"))
    assert found["items"] == [] and found["reason"] == "memory_off"
    block = _answer(_tool(alice, "get_context", user_id="m1", query="tea"))
    assert block["text"] == "" and block["reason"] == "memory_off"
    bad = _tool(alice, "set_memory_mode", user_id="m1", mode="paused")
    assert bad["isError"] and MemoryModeChange.objects.count() == 1


def test_mem0_add_with_remember_false_withholds_the_turn_and_says_so(alice):
    body = {"messages": [{"role": "user", "content": "I live in Quillstone."}], "user_id": "m1", "remember": False}
    r = call("post", "/v3/memories/add/", alice.raw_key, body=body)
    assert r.status_code == 200, r.content
    [result] = r.json()["results"]
    assert result["remembered"] is False and result["reason"] == "caller" and result["status"] == "SUCCEEDED"
    assert Turn.objects.get().user_input == "" and not Fact.objects.exists()


@pytest.mark.parametrize("extra", [{"remember": "false"}, {"remember": 0}, {"remember": False, "infer": False}])
def test_mem0_add_refuses_a_non_boolean_remember_and_remember_false_without_inference(alice, extra):
    body = {"messages": [{"role": "user", "content": "I live in Quillstone."}], "user_id": "m1", **extra}
    r = call("post", "/v3/memories/add/", alice.raw_key, body=body)
    assert r.status_code == 422, r.content
    assert not MemoryUser.objects.exists() and not Turn.objects.exists()


def test_mem0_search_answers_nothing_when_the_persons_memory_is_off(alice):
    api = ApiClient(alice.raw_key)
    api.post("/users/m1/facts", {"text": "User likes green tea."})
    body = {"query": "tea", "filters": {"user_id": "m1"}, "keyword_search": True}
    assert len(call("post", "/v3/memories/search/", alice.raw_key, body=body).json()["results"]) == 1
    _answer(_tool(alice, "set_memory_mode", user_id="m1", mode="off"))
    r = call("post", "/v3/memories/search/", alice.raw_key, body=body)
    assert r.status_code == 200 and r.json() == {"results": [], "reason": "memory_off"}
