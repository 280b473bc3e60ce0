"""The MCP SDK's stdio client launching `manage.py mcp_stdio --key KEY`, as desktop clients do."""

from __future__ import annotations

import json
import subprocess

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.connectors.aio import run_async
from tests.integration.stack import BIN, ROOT

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def stdio_session(live, key: str, steps):
    # No eager tasks in the launched process: they are queued on the embedded broker, so a store
    # does not wait for the embedding model (these tools do not need the recall index).
    env = {**live.env, "CELERY_TASK_ALWAYS_EAGER": "0"}
    params = StdioServerParameters(
        command=str(BIN / "python"), args=["manage.py", "mcp_stdio", "--key", key], cwd=str(ROOT), env=env
    )

    async def main():
        async with Client(params, read_timeout_seconds=120) as client:
            return await steps(client)

    return run_async(main)


def test_the_stdio_server_serves_the_same_tools_with_the_keys_tenant(live):
    async def steps(client):
        names = {tool.name for tool in (await client.list_tools()).tools}
        args = {"user_id": "stdio-eva", "text": "Uses a standing desk", "store_directly": True}
        stored = json.loads((await client.call_tool("add_memory", args)).content[0].text)
        memory_id = stored["memory"]["id"]
        update = {"user_id": "stdio-eva", "memory_id": memory_id, "text": "Uses a treadmill desk"}
        updated = json.loads((await client.call_tool("update_memory", update)).content[0].text)
        history_args = {"user_id": "stdio-eva", "memory_id": updated["memory"]["id"]}
        history = json.loads((await client.call_tool("get_memory_history", history_args)).content[0].text)
        listed = json.loads((await client.call_tool("get_memories", {"user_id": "stdio-eva"})).content[0].text)
        return names, history, listed

    names, history, listed = stdio_session(live, live.alice, steps)
    assert len(names) == 10 and "add_memory" in names and "set_memory_mode" in names
    assert [item["text"] for item in listed["items"]] == ["Uses a treadmill desk"]
    assert "supersede" in [entry["action"] for entry in history["items"]]

    async def other_tenant(client):
        return await client.call_tool("get_memories", {"user_id": "stdio-eva"})

    refused = stdio_session(live, live.bob, other_tenant)
    assert refused.is_error and "User not found." in refused.content[0].text


def test_a_read_only_key_cannot_write_over_stdio(live):
    async def steps(client):
        return await client.call_tool("add_memory", {"user_id": "stdio-ro", "text": "x", "store_directly": True})

    result = stdio_session(live, live.alice_read, steps)
    assert result.is_error and "lacks the 'write' scope" in result.content[0].text


def test_an_unknown_key_stops_the_command_with_a_clear_error(live):
    run = subprocess.run(
        [str(BIN / "python"), "manage.py", "mcp_stdio", "--key", "mem_bad_key"],
        cwd=ROOT,
        env=live.env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert run.returncode != 0
    assert "Unknown or revoked API key." in run.stderr
    assert run.stdout == ""  # stdout is the protocol channel
