"""The words that answer reach the caller through every door (issue 34, "Return what is counted").

A new user's turn "We just adopted a dog called Biscuit. I use Emacs." gives one fact, "User uses
Emacs."; recall ranks the fact through its turn and returns the two as one item. Asked "what is
my dog called?", REST recall, the context block (REST and MCP `get_context`), MCP
`search_memories` and mem0's search each carry the turn's words, all rendered from the one quote
recall builds (recall.hits.Quote). Real clients against a live server with the offline rules
extractor."""

from __future__ import annotations

import httpx
import pytest
from mem0 import MemoryClient

from tests.connectors.test_mcp_http import ok, session

pytestmark = [pytest.mark.integration, pytest.mark.slow]

SAID = "We just adopted a dog called Biscuit. I use Emacs."
QUESTION = "what is my dog called?"
USER = "words-every-door"


def _rest(live, method: str, path: str, body: dict) -> dict:
    answer = httpx.request(
        method, f"{live.base}/api/v1{path}", json=body, headers={"Authorization": f"Bearer {live.alice}"}, timeout=120
    )
    assert answer.status_code in (200, 201, 202), answer.text
    return answer.json()


@pytest.fixture(scope="module")
def told(live):
    _rest(live, "post", f"/users/{USER}/turns", {"session_id": "s1", "turn_id": "t1", "user_input": SAID})
    facts = _rest(live, "get", f"/users/{USER}/facts", {})["items"]
    assert [f["text"] for f in facts] == ["User uses Emacs."]
    return live


def test_rest_recall_returns_the_turn_with_the_fact_folded_into_it(told):
    # The fact is ranked through its turn (MEMORY_RECALL_FACTS_THROUGH_TURNS, the default): one item,
    # the turn's words, the fact with it.
    body = _rest(told, "post", f"/users/{USER}/recall", {"query": QUESTION, "sources": ["facts", "episodes"]})
    [item] = body["items"]
    assert item["kind"] == "episode" and item["episode"]["text"] == SAID and item["episode"]["turn_id"] == "t1"
    assert [f["text"] for f in item["folded_facts"]] == ["User uses Emacs."] and item["fact"] is None


def test_the_context_block_quotes_the_turn_under_its_fact(told):
    block = _rest(told, "post", f"/users/{USER}/context", {"query": QUESTION, "max_tokens": 400})
    assert "- User uses Emacs.\n  - on " in block["text"] and f'the user said: "{SAID}"' in block["text"]


def test_mcp_search_and_context_carry_the_turns_words(told):
    async def steps(client):
        found = ok(await client.call_tool("search_memories", {"user_id": USER, "query": QUESTION}))
        context = ok(await client.call_tool("get_context", {"user_id": USER, "query": QUESTION}))
        return found, context

    found, context = session(told, told.alice, steps)
    assert [e["quote"] for e in found["conversation"]][0].endswith(f'the user said: "{SAID}"')
    assert f'the user said: "{SAID}"' in context["text"]


def test_mem0_search_carries_the_turns_words(told):
    mem0 = MemoryClient(api_key=told.alice, host=told.base)
    both = mem0.search(QUESTION, filters={"user_id": USER}, top_k=5, sources=["facts", "episodes"])
    assert [r["memory"] for r in both["results"]] == ["User uses Emacs."]
    assert [e["text"] for e in both["episodes"]] == [SAID]
