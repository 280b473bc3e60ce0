"""`manage.py mcp_stdio --key KEY`: the MCP tools over stdin/stdout, for clients that launch a command.

stdout carries the protocol, so nothing else may be written there; Django's
logging goes to stderr.
"""

from __future__ import annotations

from typing import Any

import anyio
from django.core.management.base import BaseCommand, CommandError, CommandParser

from facts.models import ApiKey
from mcp_server.caller import current_key
from mcp_server.server import mcp_server


class Command(BaseCommand):
    help = "Serve the MCP tools over stdio with one tenant's API key (its scopes apply to every call)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--key", required=True, help="The tenant's API key, as issued by create_tenant/issue_key.")

    def handle(self, *args: Any, key: str, **options: Any) -> None:
        api_key = ApiKey.objects.for_key(key.strip())
        if api_key is None:
            raise CommandError("Unknown or revoked API key.")
        # Set before the event loop starts: its tasks, and the tools they run, copy this context.
        current_key.set(api_key)
        anyio.run(mcp_server().run_stdio_async)
