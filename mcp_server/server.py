"""The MCP server object: the tools of mcp_server.tools registered with the official SDK.

The SDK awaits tools on an event loop; the ORM must not run there. Each tool
therefore runs through asgiref's sync_to_async(thread_sensitive=True): under
the /mcp view that is the Django request thread (the view entered the loop
with async_to_sync), so the tool shares the request's database connection.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import sync_to_async
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from core.errors import ServiceError
from mcp_server.tools import TOOLS

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "Long-term memory about the people you talk to. Every tool takes the end user's user_id. "
    "At the start of a conversation call get_context; before answering something personal call "
    "search_memories; after each finished turn call add_memory with what the user said. Corrections go "
    "through update_memory (history is kept); delete_memory forgets one memory."
)


def _compact(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)


def _as_tool(fn: Callable[..., dict[str, Any]]) -> Callable[..., Awaitable[str]]:
    """An async tool with `fn`'s signature and docstring, returning compact JSON text."""

    def run(kwargs: dict[str, Any]) -> str:
        try:
            return _compact(fn(**kwargs))
        except ServiceError as exc:
            # Our message reaches the model as the tool error's text.
            raise ToolError(exc.detail) from exc

    @functools.wraps(fn)
    async def tool(**kwargs: Any) -> str:
        return await sync_to_async(run, thread_sensitive=True)(kwargs)

    tool.__annotations__ = {**fn.__annotations__, "return": "str"}
    return tool


def build_server() -> MCPServer:
    server = MCPServer(name="memory-service", instructions=INSTRUCTIONS, log_level="WARNING")
    for fn in TOOLS:
        server.add_tool(_as_tool(fn), name=fn.__name__, structured_output=False)
    return server


@functools.cache
def mcp_server() -> MCPServer:
    """One server per process: tool schemas are built once."""
    return build_server()
