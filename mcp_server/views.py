"""/mcp: the SDK's Streamable HTTP transport, served by a Django view.

The transport is an ASGI app; Django here runs under WSGI (runserver,
gunicorn, the test server). A view keeps it on the same port and behind the
same middleware and host checks, whatever serves Django. The transport runs
stateless with JSON responses: every POST is answered completely, with no
session between requests (nothing is kept per client, so any worker thread or
process can answer the next call). The view authenticates the API key, then
runs one request through a fresh session manager inside async_to_sync; the
manager must be entered (`run()`) once per instance, so one per request.

The SDK is imported on the first /mcp call, not with the URLs: it is about a second of CPU
that every process would pay at start (a Celery worker, each `manage.py` command) for a door
only the web server's /mcp calls use. gunicorn's master imports it before it forks the workers
(gunicorn.conf.py), so no caller of a production server waits for it.

Rate limits are the REST API's (core.ratelimit), counted per call in the
class of what the call does (rate_class), and refused with the REST API's 429.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from core.errors import RateLimited
from facts.auth import authenticate_key
from facts.models import ApiKey
from mcp_server.caller import current_key

if TYPE_CHECKING:
    from starlette.types import Message

MAX_BODY_BYTES = 1024 * 1024
_HOP_BY_HOP = {"content-length", "connection", "transfer-encoding"}

# The REST rate class of each tool that only reads: the class of the route it mirrors
# (docs/api.md, "Rate limits"). Any other tool, one added later included, counts as a write.
READ_TOOLS = frozenset({"get_memories", "get_memory", "get_memory_history"})
RECALL_TOOLS = frozenset({"search_memories", "get_context"})


def rate_class(body: bytes) -> str:
    """The rate class of one POSTed JSON-RPC message: a tools/call counts as what its
    tool does, any other method (initialize, tools/list, notifications) as a read.

    The body has not been validated yet (the transport does that later), so whatever
    cannot be told for sure counts as a write, the class meant for what changes data:
    bad JSON, a batch (the transport refuses batches; its parts are not looked at), a
    message without a method, a call without a tool name."""
    if len(body) > MAX_BODY_BYTES:
        return "write"  # refused with a 413 anyway; not worth parsing
    try:
        message = json.loads(body)
    except ValueError:  # UnicodeDecodeError included
        return "write"
    if not isinstance(message, dict) or not isinstance(message.get("method"), str):
        return "write"
    if message["method"] != "tools/call":
        return "read"
    params = message.get("params")
    tool = params.get("name") if isinstance(params, dict) else None
    if tool in RECALL_TOOLS:
        return "recall"
    return "read" if tool in READ_TOOLS else "write"


def _bearer_key(request: HttpRequest) -> ApiKey | None:
    """The REST API's key check (facts.auth), counted in the class of this call:
    POST is every /mcp call, reads included. Raises RateLimited over the limit."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    kind = rate_class(request.body) if request.method == "POST" else "read"
    return authenticate_key(request, token.strip(), kind)


def _asgi_scope(request: HttpRequest) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": request.method,
        "scheme": request.scheme,
        "path": request.path,
        "raw_path": request.path.encode(),
        "root_path": "",
        "query_string": request.META.get("QUERY_STRING", "").encode("latin-1"),
        "headers": [
            (name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in request.headers.items()
        ],
        "client": (request.META.get("REMOTE_ADDR", ""), 0),
        "server": (request.META.get("SERVER_NAME", ""), int(request.get_port() or 80)),
    }


async def _serve(scope: dict[str, Any], body: bytes, key: ApiKey) -> tuple[int, list[tuple[str, str]], bytes]:
    """Run one HTTP request through the MCP transport and collect its whole answer."""
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

    from mcp_server.server import mcp_server

    current_key.set(key)  # this coroutine's context; the tools' tasks inherit it
    answer: dict[str, Any] = {"status": 500, "headers": [], "body": []}
    sent_body = False

    async def receive() -> dict[str, Any]:
        nonlocal sent_body
        if sent_body:
            return {"type": "http.disconnect"}
        sent_body = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
            answer["headers"] = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in message.get("headers", [])]
        elif message["type"] == "http.response.body":
            answer["body"].append(message.get("body", b""))

    manager = StreamableHTTPSessionManager(
        app=mcp_server()._lowlevel_server,  # the SDK's own Client reaches the low-level server the same way
        json_response=True,
        stateless=True,
        max_request_body_size=MAX_BODY_BYTES,
    )
    async with manager.run():
        await manager.handle_request(scope, receive, send)
    return answer["status"], answer["headers"], b"".join(answer["body"])


@csrf_exempt
def mcp_endpoint(request: HttpRequest) -> HttpResponse:
    try:
        key = _bearer_key(request)
    except RateLimited as exc:
        # Outside django-ninja, so the REST API's 429 is built here, in the same shape.
        return JsonResponse({"detail": exc.detail, **exc.extra}, status=exc.status, headers=exc.headers)
    if key is None:
        return JsonResponse(
            {"detail": "Send the tenant's API key as 'Authorization: Bearer <key>'."},
            status=401,
            headers={"WWW-Authenticate": 'Bearer realm="mcp"'},
        )
    if request.method != "POST":
        # No server-initiated stream (GET) and no session to end (DELETE): the transport is stateless.
        # 405 is the answer the protocol gives clients for that; they carry on with POSTs.
        return HttpResponseNotAllowed(["POST"])
    if len(request.body) > MAX_BODY_BYTES:
        return JsonResponse({"detail": f"The request body is over {MAX_BODY_BYTES} bytes."}, status=413)
    status, headers, body = async_to_sync(_serve)(_asgi_scope(request), request.body, key)
    response = HttpResponse(body, status=status)
    for name, value in headers:
        if name.lower() not in _HOP_BY_HOP:
            response.headers[name] = value
    return response
