"""The subset of mem0's platform API that mem0ai's MemoryClient (2.2.1) calls, over our services.

A second NinjaAPI because these routes live at the root (/v1/..., /v3/...)
with mem0's auth scheme and answer shapes; the handlers are as thin as the
/api/v1 ones and call the same services. docs/mem0.md says how the two
vocabularies map.
"""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from django.db.models import prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI, Query, Router, Schema

from core.errors import NotFound, Rejected, ServiceError
from core.schemas import Message
from facts import privacy, selectors, services
from facts.auth import KeyRequest, require_scope, token_or_bearer_auth
from facts.models import Fact, Tenant, TurnState
from facts.services import memory_mode, turns
from mem0_api import convert
from mem0_api import selectors as mem0_selectors
from mem0_api import services as mem0_services
from mem0_api.schemas import (
    AddIn,
    AddOut,
    EventOut,
    HistoryEntryOut,
    ListIn,
    MemoryOut,
    MemoryPageOut,
    MessageOut,
    PingOut,
    SearchIn,
    SearchOut,
    SearchWithEpisodesOut,
    UpdateIn,
)
from recall import client_search

router = Router(tags=["mem0"])
ERRORS = {401: Message, 403: Message, 404: Message, 409: Message, 422: Message}
EVENT_STATUS: dict[str, str] = {
    TurnState.QUEUED: "PENDING",
    TurnState.EXTRACTING: "RUNNING",
    TurnState.DONE: "SUCCEEDED",
    TurnState.SKIPPED: "SUCCEEDED",
    TurnState.FAILED: "FAILED",
    TurnState.WITHHELD: "SUCCEEDED",
}
MAX_LISTED = 10_000


class PageQuery(Schema):
    page: int = 1
    page_size: int = 100


def _fact(request: KeyRequest, memory_id: str, scope: str) -> Fact:
    tenant = require_scope(request, scope)
    try:
        return services.fact_get(tenant=tenant, fact_id=UUID(memory_id))
    except (ValueError, NotFound) as exc:  # not a UUID, or not one of this tenant's facts
        raise NotFound(f"No memory with id {memory_id!r}.") from exc


@router.get("/v1/ping/", response={200: PingOut, **ERRORS})
def ping(request: KeyRequest) -> dict[str, Any]:
    key = request.auth
    # The client refuses to start without both ids; a tenant is our organisation and project at once.
    return {
        "status": "ok",
        "org_id": str(key.tenant_id),
        "project_id": str(key.tenant_id),
        "user_email": None,
        "tenant": key.tenant.name,
        "scopes": key.scopes,
    }


@router.post("/v3/memories/add/", response={200: AddOut, **ERRORS}, exclude_none=True)
def add_memories(request: KeyRequest, payload: AddIn) -> dict[str, Any]:
    tenant = require_scope(request, "write")
    if payload.agent_id or payload.app_id:
        raise Rejected("filters", "agent_id and app_id are not supported: memories belong to a user_id.")
    user_id = services.validate_id(convert.user_id_of(payload.filters, payload.user_id, allow_run=True), "user_id")
    if not payload.infer and not payload.remember:
        raise Rejected("remember", "infer=False stores the messages; with remember=false nothing may be stored.")
    if not payload.infer:
        return {"results": _store_directly(request, tenant, user_id, payload)}
    user_input, assistant_response = convert.turn_texts(payload.messages)
    turn, _ = turns.turn_post(
        tenant=tenant,
        user_id=user_id,
        session_id=convert.session_of(payload.filters, payload.run_id),
        user_input=user_input,
        assistant_response=assistant_response,
        remember=payload.remember,
    )
    turn.refresh_from_db()  # an eager worker may have extracted it already
    result = {"status": EVENT_STATUS[turn.state], "event_id": turn.turn_id}
    if (withheld := turns.withheld_reason(turn)) is not None:
        message = "Not remembered: nothing was extracted and the messages were not kept."
        return {"results": [{**result, "message": message, "remembered": False, "reason": withheld.reason}]}
    message = "Memory processing has been queued for background execution."
    return {"results": [{**result, "message": message}]}


def _store_directly(request: KeyRequest, tenant: Tenant, user_id: str, payload: AddIn) -> list[dict[str, Any]]:
    """infer=False: each user message is stored as it is, all or none."""
    texts = [m.content for m in payload.messages if m.role == "user" and m.content.strip()]
    if not texts:
        raise Rejected("messages", "infer=False stores the 'user' messages; none has text.")
    actor = services.Actor.api_key(request.auth)
    facts = [{"text": text} for text in texts]
    stored = services.facts_store_for_user(tenant=tenant, user_id=user_id, actor=actor, facts=facts)
    return [
        {"id": str(r.fact.uuid), "memory": r.fact.text, "event": "ADD" if r.created else "NONE", "status": r.outcome}
        for r in stored
    ]


@router.get("/v1/event/{event_id}/", response={200: EventOut, **ERRORS})
def get_event(request: KeyRequest, event_id: str) -> dict[str, Any]:
    """The state of an add with inference: poll until SUCCEEDED (or FAILED)."""
    tenant = require_scope(request, "read")
    turn = mem0_selectors.turn_by_event(tenant=tenant, event_id=event_id)
    return {
        "id": turn.turn_id,
        "event_type": "ADD",
        "status": EVENT_STATUS[turn.state],
        "state": turn.state,
        "results": [convert.memory_json(f) for f in mem0_selectors.facts_of_turn(turn)],
        "created_at": turn.created_at.isoformat(),
        "updated_at": turn.finished_at.isoformat() if turn.finished_at else None,
    }


@router.post("/v3/memories/", response={200: MemoryPageOut, **ERRORS})
def list_memories(request: KeyRequest, payload: ListIn, paging: Query[PageQuery]) -> dict[str, Any]:
    tenant = require_scope(request, "read")
    user_id = convert.user_id_of(payload.filters)
    if paging.page < 1 or not 1 <= paging.page_size <= 200 or paging.page * paging.page_size > MAX_LISTED:
        raise Rejected("page", f"page >= 1 and page_size 1-200, at most {MAX_LISTED} memories deep.")
    user = mem0_selectors.memory_user_or_none(tenant=tenant, user_id=user_id)
    if user is None:  # mem0 answers an empty list for a user it has not seen
        return {"count": 0, "next": None, "previous": None, "results": []}
    start = (paging.page - 1) * paging.page_size
    facts, _ = selectors.fact_list(
        user=user, include_retired=payload.show_expired, limit=start + paging.page_size, cursor=None
    )
    count = mem0_selectors.memory_count(user=user, include_retired=payload.show_expired)

    def link(page: int) -> str:
        return request.build_absolute_uri(f"{request.path}?page={page}&page_size={paging.page_size}")

    return {
        "count": count,
        "next": link(paging.page + 1) if start + paging.page_size < count else None,
        "previous": link(paging.page - 1) if paging.page > 1 else None,
        "results": [convert.memory_json(f) for f in facts[start:]],
    }


@router.post("/v3/memories/search/", response={200: SearchOut, **ERRORS})
def search_memories(request: KeyRequest, payload: SearchIn) -> dict[str, Any] | HttpResponse:
    """mem0's search: the facts as `results`; with `sources` naming episodes, also `episodes`."""
    tenant = require_scope(request, "read")
    user = mem0_selectors.memory_user_or_none(tenant=tenant, user_id=convert.user_id_of(payload.filters))
    if reason := memory_mode.recall_withheld(user):  # the user's memory mode is off
        return HttpResponse(json.dumps({"results": [], "reason": reason}), content_type="application/json")
    sources = payload.sources or ["facts"]
    mode = "lexical" if payload.keyword_search else "hybrid"
    found = client_search.ClientSearch()
    if user is not None:  # mem0 answers an empty search for a user it has not seen
        found = client_search.client_search(user=user, query=payload.query, k=payload.top_k, mode=mode, sources=sources)
    prefetch_related_objects([hit.fact for hit in found.facts], "user", "superseded_by", "replaces", "source_turn")
    results = [{**convert.memory_json(hit.fact), "score": hit.score} for hit in found.facts]
    if "episodes" not in sources:
        return {"results": results}
    body = SearchWithEpisodesOut.model_validate(
        {
            "results": results,
            "episodes": [convert.episode_json(hit) for hit in found.episodes],
            "episodes_withheld": found.withheld,
        }
    )
    # Rendered as is: the declared SearchOut would drop the opt-in list.
    return HttpResponse(body.model_dump_json(), content_type="application/json")


@router.get("/v1/memories/{memory_id}/", response={200: MemoryOut, **ERRORS})
def get_memory(request: KeyRequest, memory_id: str) -> dict[str, Any]:
    return convert.memory_json(_fact(request, memory_id, "read"))


@router.put("/v1/memories/{memory_id}/", response={200: MemoryOut, **ERRORS})
def update_memory(request: KeyRequest, memory_id: str, payload: UpdateIn) -> dict[str, Any]:
    """mem0 overwrites; we supersede: the answer is the NEW memory (new id), the old one is kept in history."""
    fact = _fact(request, memory_id, "write")
    if payload.text is None or not payload.text.strip():
        raise Rejected("text", "Send the corrected text: metadata, timestamp and expiration_date are not stored.")
    new = services.fact_supersede(
        fact=fact, text=payload.text, actor=services.Actor.api_key(request.auth), reason="updated through mem0 API"
    )
    return convert.memory_json(new)


@router.delete("/v1/memories/{memory_id}/", response={200: MessageOut, **ERRORS}, exclude_none=True)
def delete_memory(request: KeyRequest, memory_id: str, delete_linked: bool = False) -> dict[str, Any]:
    fact = _fact(request, memory_id, "write")
    actor = services.Actor.api_key(request.auth)
    if delete_linked:
        deleted = mem0_services.memory_forget_chain(fact=fact, actor=actor)
    else:
        services.fact_forget(fact=fact, actor=actor)
        deleted = 1
    return {"message": "Memory deleted successfully!", "deleted": deleted}


@router.get("/v1/memories/{memory_id}/history/", response={200: list[HistoryEntryOut], **ERRORS})
def memory_history(request: KeyRequest, memory_id: str) -> list[dict[str, Any]]:
    fact = _fact(request, memory_id, "read")
    return convert.history_list(list(selectors.fact_history(fact=fact)), fact.user.external_id)


@router.delete("/v1/memories/", response={200: MessageOut, **ERRORS}, exclude_none=True)
def delete_all_memories(request: KeyRequest, user_id: str | None = None) -> dict[str, Any]:
    """Forget every memory of one user. Admin scope: like an erase, it cannot be undone in bulk."""
    tenant = require_scope(request, "admin")
    if not user_id:
        raise Rejected("user_id", "Name the user: delete_all(user_id='...'). A whole tenant is never deleted here.")
    user = services.memory_user_get(tenant=tenant, user_id=user_id)
    deleted = mem0_services.memories_forget_all(user=user, actor=services.Actor.api_key(request.auth))
    return {"message": "Memories deleted successfully!", "deleted": deleted}


@router.delete("/v2/entities/{entity_type}/{entity_id}/", response={200: MessageOut, **ERRORS}, exclude_none=True)
def delete_entity(request: KeyRequest, entity_type: str, entity_id: str) -> dict[str, Any]:
    """Erase a user and everything held about it (our DELETE /api/v1/users/{id}), with a receipt."""
    tenant = require_scope(request, "admin")
    if entity_type != "user":
        raise Rejected("entity_type", "Only user entities exist here: /v2/entities/user/{user_id}/.")
    user = services.memory_user_get(tenant=tenant, user_id=entity_id)
    receipt = privacy.user_erase(user=user, actor=services.Actor.api_key(request.auth))
    return {"message": "Entity deleted successfully.", "receipt_id": receipt.id, "counts": receipt.counts}


mem0_api = NinjaAPI(
    title="Memory service: mem0-compatible routes",
    version="1",
    auth=token_or_bearer_auth,
    urls_namespace="mem0",
    docs_url=None,
    openapi_url=None,
)
mem0_api.add_router("", router)


@mem0_api.exception_handler(ServiceError)
def service_error(request: HttpRequest, exc: ServiceError) -> HttpResponse:
    return mem0_api.create_response(request, {"detail": exc.detail, **exc.extra}, status=exc.status)
