"""Who is calling a tool: the API key of the current MCP request (HTTP) or process (stdio).

A context variable, set where the key is known (the /mcp view, the mcp_stdio
command) and read by the tools; asyncio tasks and asgiref's sync_to_async copy
it, so a tool sees the key of the request it serves and no other.
"""

from __future__ import annotations

from contextvars import ContextVar

from core.errors import ScopeDenied
from facts.models import ApiKey, Tenant
from facts.services import Actor

current_key: ContextVar[ApiKey | None] = ContextVar("mcp_api_key", default=None)


def tenant_with_scope(scope: str) -> Tenant:
    """The caller's tenant if its key carries `scope` (admin implies all), as the REST routes require."""
    key = current_key.get()
    if key is None:
        raise ScopeDenied("No API key for this MCP call.")
    if not key.has_scope(scope):
        raise ScopeDenied(f"This API key lacks the '{scope}' scope.")
    return key.tenant


def actor() -> Actor:
    key = current_key.get()
    assert key is not None, "tenant_with_scope() is called first"
    return Actor.api_key(key)
