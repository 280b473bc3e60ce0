"""mem0's self-hosted REST server (its `server/main.py`): the same memories under that server's
paths and bodies, beside the Platform routes of mem0_api.api, with the same tenancy and scopes.

The self-hosted server authenticates with an `X-API-Key` header (or `Authorization: Bearer`);
here either carries one of our API keys, and the key decides the tenant. Each handler maps
the self-hosted body onto the Platform route's and calls that handler, so both shapes answer
from one code path (docs/mem0.md, "mem0's self-hosted server").
"""

from __future__ import annotations

from typing import Any, NoReturn, TypeVar

from django.http import HttpRequest, HttpResponse
from ninja import Field, Query, Router, Schema
from ninja.security import APIKeyHeader, HttpBearer
from pydantic import BaseModel, ValidationError

from core.errors import Rejected
from core.schemas import Message
from facts import selectors
from facts.auth import KeyRequest, authenticate_key, require_scope
from facts.models import ApiKey
from mem0_api import api as platform
from mem0_api import convert
from mem0_api import selectors as mem0_selectors
from mem0_api.schemas import AddIn, AddOut, HistoryEntryOut, MemoryOut, SearchIn, SearchOut, UpdateIn

SchemaT = TypeVar("SchemaT", bound=BaseModel)
ERRORS = {401: Message, 403: Message, 404: Message, 409: Message, 422: Message}
LIST_LIMIT = 1000  # the self-hosted server's ALL_MEMORIES_LIMIT


def _rate_class(request: HttpRequest) -> str | None:
    # POST /search only reads: counted as a recall, as mem0's Platform search is.
    return "recall" if request.path_info.rstrip("/") == "/search" else None


class XApiKeyAuth(APIKeyHeader):
    """`X-API-Key: <key>`, the self-hosted server's per-user API key header."""

    param_name = "X-API-Key"

    def authenticate(self, request: HttpRequest, key: str | None) -> ApiKey | None:
        return authenticate_key(request, key.strip(), _rate_class(request)) if key and key.strip() else None


class BearerAuth(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> ApiKey | None:
        return authenticate_key(request, token, _rate_class(request))


router = Router(tags=["mem0 self-hosted"], auth=[XApiKeyAuth(), BearerAuth()])


class MessageIn(Schema):
    role: str
    content: str


class MemoryCreateIn(Schema):
    """The self-hosted server's MemoryCreate; our own `remember` option passes through."""

    messages: list[dict[str, Any]] = Field(..., min_length=1, max_length=50)
    user_id: str | None = None
    agent_id: str | None = None
    run_id: str | None = None
    metadata: dict[str, Any] | None = None
    expiration_date: str | None = None
    infer: bool | None = None
    memory_type: str | None = None
    prompt: str | None = None
    remember: Any = None


class SearchRequestIn(Schema):
    query: str
    user_id: str | None = None
    run_id: str | None = None
    agent_id: str | None = None
    filters: dict[str, Any] | None = None
    top_k: int | None = None
    threshold: float | None = None
    explain: bool | None = None
    show_expired: bool | None = None
    sources: list[str] | None = None  # ours: "episodes" adds past messages (docs/mem0.md)


class MemoryUpdateIn(Schema):
    text: str | None = None
    metadata: dict[str, Any] | None = None
    expiration_date: str | None = None


class ListOut(Schema):
    results: list[MemoryOut]


class UpdatedOut(MemoryOut):
    message: str


class MessageOut(Schema):
    message: str


class ListQuery(Schema):
    user_id: str | None = None
    run_id: str | None = None
    agent_id: str | None = None
    top_k: int = Field(100, ge=0, le=LIST_LIMIT)
    show_expired: bool = False


def _platform(schema: type[SchemaT], fields: dict[str, Any]) -> SchemaT:
    """The Platform route's body from the self-hosted one; what it refuses is a 422 naming the field."""
    try:
        return schema.model_validate(fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "body"
        raise Rejected(str(first["loc"][0]) if first["loc"] else "body", f"{where}: {first['msg']}.") from exc


def _entities(body: ListQuery | SearchRequestIn) -> dict[str, Any]:
    """The self-hosted server's top-level ids, as Platform filters (one user; others refused there)."""
    return {name: getattr(body, name) for name in ("user_id", "agent_id", "run_id") if getattr(body, name)}


@router.post("/memories", response={200: AddOut, **ERRORS}, exclude_none=True)
def add_memories(request: KeyRequest, body: MemoryCreateIn) -> dict[str, Any]:
    """Add memories: with inference (the default) the messages become one turn, extracted in the
    background (poll `GET /v1/event/{event_id}/` or list); `infer: false` stores each user message."""
    fields = body.dict(exclude_none=True, exclude={"expiration_date", "memory_type", "prompt"})
    fields["run_id"], fields["agent_id"] = body.run_id, body.agent_id
    return platform.add_memories(request, _platform(AddIn, fields))


@router.get("/memories", response={200: ListOut, **ERRORS})
def list_memories(request: KeyRequest, query: Query[ListQuery]) -> dict[str, Any]:
    """One user's memories, newest first (`show_expired=true`: retired ones too)."""
    tenant = require_scope(request, "read")
    if not query.user_id:
        raise Rejected("user_id", "Name the user: GET /memories?user_id=... (memories belong to one user).")
    user_id = convert.user_id_of(_entities(query))
    user = mem0_selectors.memory_user_or_none(tenant=tenant, user_id=user_id)
    if user is None or query.top_k == 0:  # mem0 answers an empty list for a user it has not seen
        return {"results": []}
    facts, _ = selectors.fact_list(user=user, include_retired=query.show_expired, limit=query.top_k)
    return {"results": [convert.memory_json(f) for f in facts]}


@router.post("/search", response={200: SearchOut, **ERRORS})
def search_memories(request: KeyRequest, body: SearchRequestIn) -> dict[str, Any] | HttpResponse:
    """mem0's search over one user's memories (ids at the top level or in `filters`)."""
    filters = {**(body.filters or {}), **_entities(body)}
    fields: dict[str, Any] = {"query": body.query, "filters": filters, "threshold": body.threshold}
    if body.top_k is not None:
        fields["top_k"] = body.top_k
    if body.sources is not None:
        fields["sources"] = body.sources
    return platform.search_memories(request, _platform(SearchIn, fields))


@router.get("/memories/{memory_id}", response={200: MemoryOut, **ERRORS})
def get_memory(request: KeyRequest, memory_id: str) -> dict[str, Any]:
    return platform.get_memory(request, memory_id)


@router.put("/memories/{memory_id}", response={200: UpdatedOut, **ERRORS})
def update_memory(request: KeyRequest, memory_id: str, body: MemoryUpdateIn) -> dict[str, Any]:
    """Supersede, not overwrite: the answer is the NEW memory (a new id); the old one stays in history."""
    new = platform.update_memory(request, memory_id, _platform(UpdateIn, body.dict()))
    return {"message": "Memory updated successfully!", **new}


@router.get("/memories/{memory_id}/history", response={200: list[HistoryEntryOut], **ERRORS})
def memory_history(request: KeyRequest, memory_id: str) -> list[dict[str, Any]]:
    return platform.memory_history(request, memory_id)


@router.delete("/memories/{memory_id}", response={200: MessageOut, **ERRORS})
def delete_memory(request: KeyRequest, memory_id: str) -> dict[str, str]:
    platform.delete_memory(request, memory_id)
    return {"message": "Memory deleted successfully"}


@router.delete("/memories", response={200: MessageOut, **ERRORS})
def delete_all_memories(
    request: KeyRequest, user_id: str | None = None, run_id: str | None = None, agent_id: str | None = None
) -> dict[str, str]:
    """Forget every memory of one user (admin scope, as on the self-hosted server)."""
    if run_id or agent_id:
        raise Rejected("user_id", "Memories belong to a user here: DELETE /memories?user_id=...")
    platform.delete_all_memories(request, user_id)
    return {"message": "All relevant memories deleted"}


@router.post("/reset", response={200: MessageOut, **ERRORS})
def reset(request: KeyRequest) -> NoReturn:
    """The self-hosted server wipes every memory here; a whole tenant is never deleted over the API."""
    require_scope(request, "admin")
    raise Rejected(
        "reset",
        "Resetting every memory of a tenant is not offered: forget one user's memories with "
        "DELETE /memories?user_id=... or erase the user (DELETE /api/v1/users/{user_id}).",
    )
