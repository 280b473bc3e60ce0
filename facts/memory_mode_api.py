"""A person's memory mode over REST (docs/api.md): read it with its audit, set it."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from ninja import Field, Router, Schema

from core.schemas import ObjectIn, UserId, errors
from facts import services
from facts.auth import KeyRequest, require_scope
from facts.models import MemoryUser
from facts.services import memory_mode

router = Router(tags=["memory mode"])

Mode = Literal["auto", "confirm", "read_only", "off"]


class MemoryModeIn(ObjectIn):
    mode: Mode = Field(
        ...,
        description="auto: learn and recall; confirm: every change waits in the confirmation queue; "
        "read_only: recall, store nothing new; off: store nothing, recall nothing",
    )


class ModeChangeOut(Schema):
    before: str
    after: str
    actor_kind: str
    actor_id: str
    created_at: datetime


class MemoryModeOut(Schema):
    user_id: str
    mode: Mode
    changed: bool = Field(..., description="false when the mode was already this (nothing recorded)")
    history: list[ModeChangeOut] = Field(..., description="Every change of the mode, oldest first")


def _answer(user: MemoryUser, changed: bool) -> dict[str, Any]:
    return {
        "user_id": user.external_id,
        "mode": memory_mode.memory_mode_of(user),
        "changed": changed,
        "history": list(user.mode_changes.order_by("created_at", "id")),
    }


@router.get("/users/{user_id}/memory-mode", response={200: MemoryModeOut, **errors(401, 403, 404, 422)})
def get_memory_mode(request: KeyRequest, user_id: UserId) -> dict[str, Any]:
    tenant = require_scope(request, "read")
    user = services.memory_user_get(tenant=tenant, user_id=user_id)
    return _answer(user, changed=False)


@router.put("/users/{user_id}/memory-mode", response={200: MemoryModeOut, **errors(400, 401, 403, 422)})
def put_memory_mode(request: KeyRequest, user_id: UserId, payload: MemoryModeIn) -> dict[str, Any]:
    """Set what the service may store and recall for this person (created if new, so a person
    can say "off" before their first turn). Audited: who, from what, to what, when."""
    tenant = require_scope(request, "write")
    user = services.memory_user_get_or_create(tenant=tenant, user_id=user_id)
    change = memory_mode.memory_mode_set(user=user, mode=payload.mode, actor=services.Actor.api_key(request.auth))
    return _answer(user, changed=change is not None)
