"""Fact routes (docs/api.md): thin handlers over facts.selectors and facts.services."""

from __future__ import annotations

import json
from typing import Annotated, Any
from uuid import UUID

from django.conf import settings
from ninja import Query, Router, Status
from ninja.responses import NinjaJSONEncoder

from core.schemas import ERRORS, UserId, errors
from facts import privacy, provenance, replicas, selectors, services
from facts.auth import KeyRequest, require_scope
from facts.models import Fact, FactHistory
from facts.schemas import (
    DeletedOut,
    FactIn,
    FactListFilters,
    FactOut,
    FactPage,
    FactPatchIn,
    HistoryOut,
    ProvenanceOut,
)

# A key normalises to lower-case letters, digits, "_", "." and "-" (facts.services.normalise_key);
# one with none of those but "_" would select the facts without a key, so the schema states
# (unanchored: somewhere in the value) what the service refuses with rule key_required.
FORGET_KEY_PATTERN = "[A-Za-z0-9.-]"

router = Router(tags=["facts"])


@router.post("/users/{user_id}/facts", response={201: FactOut, 200: FactOut, **ERRORS})
def store_fact(request: KeyRequest, user_id: UserId, payload: FactIn) -> Status[Fact]:
    tenant = require_scope(request, "write")
    fields = {name: getattr(payload, name) for name in FactIn.model_fields}
    actor = services.Actor.api_key(request.auth)
    [result] = services.facts_store_for_user(tenant=tenant, user_id=user_id, actor=actor, facts=[fields])
    return Status(201 if result.created else 200, result.fact)


@router.get("/users/{user_id}/facts", response={200: FactPage, **errors(401, 403, 404, 422)})
def list_facts(request: KeyRequest, user_id: UserId, filters: Query[FactListFilters]) -> dict[str, Any]:
    tenant = require_scope(request, "read")
    user = services.memory_user_get(tenant=tenant, user_id=user_id)
    with replicas.reading_for(user):  # a replica with this user's last write, or the primary
        items, next_cursor = selectors.fact_list(
            user=user, **filters.dict(), size_of=_bytes_in_answer, max_bytes=settings.MEMORY_LIST_MAX_BYTES - PAGE_FRAME
        )
    return {"items": items, "next_cursor": next_cursor}


# The page around its items: {"items": [...], "next_cursor": "<at most 41 characters>"}.
PAGE_FRAME = 300


def _bytes_in_answer(fact: Fact) -> int:
    # What ninja's JSON renderer writes for this item, and the ", " before the next one.
    return len(json.dumps(FactOut.from_orm(fact).model_dump(), cls=NinjaJSONEncoder)) + 2


@router.delete("/users/{user_id}/facts", response={200: DeletedOut, **errors(401, 403, 404, 422)})
def delete_facts_by_key(
    request: KeyRequest,
    user_id: UserId,
    key: Annotated[str, Query(pattern=FORGET_KEY_PATTERN)],
    withdraw_turn: bool = False,
) -> dict[str, int]:
    tenant = require_scope(request, "write")
    user = services.memory_user_get(tenant=tenant, user_id=user_id)
    # The dashboard's path: a deletion receipt, then the WAL checkpoint after commit.
    actor = services.Actor.api_key(request.auth)
    receipt = privacy.user_forget_key(user=user, key=key, actor=actor, withdraw_turns=withdraw_turn)
    return {"deleted": receipt.counts["facts"]}


@router.get("/facts/{fact_id}", response={200: FactOut, **errors(401, 403, 404, 422)})
def get_fact(request: KeyRequest, fact_id: UUID) -> Fact:
    tenant = require_scope(request, "read")
    # From a replica when it has the owner's last write (facts/replicas.py).
    return replicas.read_checked(
        lambda: selectors.with_output_links(services.fact_get(tenant=tenant, fact_id=fact_id)), lambda f: f.user_id
    )


@router.patch("/facts/{fact_id}", response={200: FactOut, **ERRORS})
def patch_fact(request: KeyRequest, fact_id: UUID, payload: FactPatchIn) -> Fact:
    tenant = require_scope(request, "write")
    fact = services.fact_get(tenant=tenant, fact_id=fact_id)
    changed = services.fact_supersede(
        fact=fact,
        text=payload.text,
        actor=services.Actor.api_key(request.auth),
        category=payload.category,
        key=payload.key,
        confidence=payload.confidence,
        entities=payload.entities,
        reason="corrected through the API",
    )
    return selectors.with_output_links(changed)


@router.delete("/facts/{fact_id}", response={204: None, **errors(401, 403, 404, 409, 422)})
def forget_fact(request: KeyRequest, fact_id: UUID, withdraw_turn: bool = False) -> Status[None]:
    tenant = require_scope(request, "write")
    fact = services.fact_get(tenant=tenant, fact_id=fact_id)
    # withdraw_turn: the turn it was stated in goes too ("forget that I told you this").
    services.fact_forget(fact=fact, actor=services.Actor.api_key(request.auth), withdraw_turn=withdraw_turn)
    return Status(204, None)


@router.get("/facts/{fact_id}/history", response={200: list[HistoryOut], **errors(401, 403, 404, 422)})
def fact_history(request: KeyRequest, fact_id: UUID) -> list[FactHistory]:
    tenant = require_scope(request, "read")
    fact = services.fact_get(tenant=tenant, fact_id=fact_id)
    return list(selectors.fact_history(fact=fact))


@router.get("/facts/{fact_id}/provenance", response={200: ProvenanceOut, **errors(401, 403, 404, 422)})
def fact_provenance(request: KeyRequest, fact_id: UUID) -> dict[str, Any]:
    tenant = require_scope(request, "read")
    fact = services.fact_get(tenant=tenant, fact_id=fact_id)
    return provenance.fact_provenance(fact=fact)
