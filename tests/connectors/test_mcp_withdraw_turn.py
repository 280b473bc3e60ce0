"""MCP `delete_memory` with `withdraw_turn`: the turn the memory was learned from goes too,
as with REST's `withdraw_turn=true` (docs/api.md, "Forgetting"). Through /mcp in this process."""

from __future__ import annotations

import pytest

from facts.models import Fact, Turn
from tests.base import ApiClient
from tests.connectors.test_mcp_rate_limits import post, tool_call

# The turn is extracted after its commit.
pytestmark = pytest.mark.django_db(transaction=True)


def _learn(alice) -> Fact:
    r = ApiClient(alice.raw_key).post("/users/mcp-w/turns", {"session_id": "s1", "user_input": "I live in Lisbon."})
    assert r.status_code == 202, r.content
    return Fact.objects.get(key="home_city")


def test_delete_memory_with_withdraw_turn_deletes_the_turn_it_was_learned_from(alice):
    fact = _learn(alice)
    r = post(alice.raw_key, tool_call("delete_memory", user_id="mcp-w", memory_id=str(fact.uuid), withdraw_turn=True))
    assert r.status_code == 200 and "error" not in r.json(), r.content
    assert not Fact.objects.exists() and not Turn.objects.exists()


def test_delete_memory_without_it_keeps_the_turn(alice):
    fact = _learn(alice)
    r = post(alice.raw_key, tool_call("delete_memory", user_id="mcp-w", memory_id=str(fact.uuid)))
    assert r.status_code == 200 and "error" not in r.json(), r.content
    assert not Fact.objects.exists() and Turn.objects.get().episode_withdrawn
