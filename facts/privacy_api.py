"""Erase and export routes (docs/design.md §8).

Erasing needs the `admin` scope: it cannot be undone, so a routine `write` key
(the one an assistant holds to send turns) must not be able to do it.
Exporting needs `read`: it shows nothing the read routes do not already show.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ninja import Router, Schema

from core.schemas import UserId, errors
from facts import privacy, services
from facts.auth import KeyRequest, require_scope
from facts.models import DeletionReceipt

router = Router(tags=["privacy"])


class ReceiptOut(Schema):
    id: int
    scope: str
    user_hash: str
    counts: dict[str, int]
    actor_kind: str
    actor_id: str
    created_at: datetime


@router.delete("/users/{user_id}", response={200: ReceiptOut, **errors(401, 403, 404)})
def erase_user(request: KeyRequest, user_id: UserId) -> DeletionReceipt:
    tenant = require_scope(request, "admin")
    user = services.memory_user_get(tenant=tenant, user_id=user_id)
    return privacy.user_erase(user=user, actor=services.Actor.api_key(request.auth))


@router.get("/users/{user_id}/export", response={200: dict[str, Any], **errors(401, 403, 404)})
def export_user(request: KeyRequest, user_id: UserId) -> dict[str, Any]:
    tenant = require_scope(request, "read")
    user = services.memory_user_get(tenant=tenant, user_id=user_id)
    return privacy.user_export(user=user)
