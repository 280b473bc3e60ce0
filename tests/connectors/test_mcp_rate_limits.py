"""/mcp and the per-key rate limits: a call counts in the REST class of what it does
(a writing tool as a write, a search as a recall, the rest as a read), and over the
limit the answer is the REST API's 429, not a 500.

Through Django's test client, in this process: one JSON-RPC message per POST, as the
stateless transport takes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import re
from typing import Any

import pytest
from django.test import Client, override_settings

from facts.models import Fact
from mcp_server import tools
from mcp_server.tools import TOOLS
from mcp_server.views import rate_class

# A day-long window: a test cannot straddle a reset (except at midnight UTC).
TWO_WRITES = override_settings(MEMORY_RATE_LIMIT_WRITE="2/day")


def rpc(method: str, params: dict | list | None = None, msg_id: int = 1) -> dict:
    return {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params or {}}


def tool_call(name: str, **arguments) -> dict:
    return rpc("tools/call", {"name": name, "arguments": arguments})


def post(key: str, body) -> Any:
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    with _as_a_wsgi_thread():
        return Client().post(
            "/mcp",
            data=data,
            content_type="application/json",
            headers={"Authorization": f"Bearer {key}", "Accept": "application/json, text/event-stream"},
        )


@contextlib.contextmanager
def _as_a_wsgi_thread():
    """The session's browser fixture (tests/conftest.py) leaves Playwright's event loop marked as
    running in this thread, which a WSGI thread never has: /mcp's async_to_sync refuses to run
    under it. Unmark it for the request (the database work still runs in this thread)."""
    loop = asyncio.events._get_running_loop()
    asyncio.events._set_running_loop(None)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(loop)


def add(key: str, n: int) -> Any:
    return post(key, tool_call("add_memory", user_id="mcp-rl", text=f"Owns {n + 2} bikes", store_directly=True))


def _assert_refused(r) -> None:
    assert r.status_code == 429, r.content
    assert 1 <= int(r["Retry-After"]) <= 86400
    body = r.json()
    # The REST API's 429 body (memory_service.api.service_error).
    assert "Rate limit" in body["detail"] and body["retry_after"] == int(r["Retry-After"])


@TWO_WRITES
def test_it_answers_429_with_retry_after_over_the_write_limit(alice):
    for n in range(2):
        r = add(alice.raw_key, n)
        assert r.status_code == 200 and "error" not in r.json(), r.content
    facts = Fact.objects.count()
    _assert_refused(add(alice.raw_key, 9))
    assert Fact.objects.count() == facts  # refused before the tool ran


@TWO_WRITES
def test_reads_past_the_write_limit_still_succeed(alice):
    for n in range(2):
        assert add(alice.raw_key, n).status_code == 200
    _assert_refused(add(alice.raw_key, 9))
    listed = post(alice.raw_key, rpc("tools/list"))
    assert listed.status_code == 200, listed.content
    assert {tool["name"] for tool in listed.json()["result"]["tools"]} >= {"add_memory", "search_memories"}
    reads: list[tuple[str, dict[str, Any]]] = [
        ("search_memories", {"query": "bikes", "mode": "lexical"}),
        ("get_memories", {}),
        ("get_context", {"max_tokens": 200}),
    ]
    for name, args in reads:
        r = post(alice.raw_key, tool_call(name, user_id="mcp-rl", **args))
        assert r.status_code == 200, (name, r.content)
        result = r.json()["result"]
        assert not result["isError"], (name, r.content)
        if name != "get_context":  # two first mentions are below the context block's confidence floor
            assert "bikes" in result["content"][0]["text"], (name, r.content)


@override_settings(MEMORY_RATE_LIMIT_READ="2/day")
def test_reads_have_their_own_limit_and_writes_go_on(alice):
    for _ in range(2):
        assert post(alice.raw_key, rpc("tools/list")).status_code == 200
    _assert_refused(post(alice.raw_key, rpc("tools/list")))
    _assert_refused(post(alice.raw_key, tool_call("get_memories", user_id="mcp-rl")))
    assert add(alice.raw_key, 0).status_code == 200


@override_settings(MEMORY_RATE_LIMIT_RECALL="1/day")
def test_search_counts_as_a_recall_as_over_rest(alice):
    search = tool_call("search_memories", user_id="mcp-rl", query="bikes")
    assert post(alice.raw_key, search).status_code == 200
    _assert_refused(post(alice.raw_key, search))
    _assert_refused(post(alice.raw_key, tool_call("get_context", user_id="mcp-rl")))
    assert post(alice.raw_key, tool_call("get_memories", user_id="mcp-rl")).status_code == 200


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        (rpc("initialize"), "read"),
        (rpc("tools/list"), "read"),
        ({"jsonrpc": "2.0", "method": "notifications/initialized"}, "read"),
        (tool_call("get_memory", user_id="u", memory_id="m"), "read"),
        (tool_call("search_memories", user_id="u", query="q"), "recall"),
        (tool_call("add_memory", user_id="u", text="t"), "write"),
        (tool_call("delete_memory", user_id="u", memory_id="m"), "write"),
        (tool_call("update_memory", user_id="u", memory_id="m", text="t"), "write"),
        (tool_call("delete_all_memories", user_id="u"), "write"),
        (tool_call("a_tool_added_later"), "write"),
        (rpc("tools/call", {"arguments": {}}), "write"),
        (rpc("tools/call", ["add_memory"]), "write"),
        ([rpc("tools/list"), tool_call("add_memory", user_id="u", text="t")], "write"),
        ([rpc("tools/list")], "write"),
        ([], "write"),
        ("{not json", "write"),
        (b"\xff\xfe", "write"),
        ("null", "write"),
        ('"tools/list"', "write"),
        ({"jsonrpc": "2.0", "id": 1, "result": {}}, "write"),
    ],
)
def test_calls_are_classed_by_what_they_do_and_doubtful_ones_as_writes(body, kind):
    raw = body if isinstance(body, bytes) else (body if isinstance(body, str) else json.dumps(body)).encode()
    assert rate_class(raw) == kind


def test_every_tool_is_classed_by_the_scope_it_asks_for():
    # A tool added later is a write until listed as a read (rate_class); this keeps the
    # lists true: a tool that takes the write or admin scope counts as a write.
    for name in [fn.__name__ for fn in TOOLS]:
        scopes = set(re.findall(r'"(read|write|admin)"\)', inspect.getsource(getattr(tools, name))))
        assert len(scopes) == 1, name
        expected = {"read", "recall"} if scopes == {"read"} else {"write"}
        assert rate_class(json.dumps(tool_call(name)).encode()) in expected, name
