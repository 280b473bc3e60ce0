"""Turn routes (docs/api.md): post a finished turn for background extraction, read its state."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from ninja import Field, Router, Schema, Status

from facts import services
from facts.extraction.status import extractor_state
from facts.services import turns
from memory_service.auth import require_scope
from memory_service.schemas import ERRORS

router = Router(tags=["turns"])


class TurnIn(Schema):
    session_id: str = Field(..., min_length=1, max_length=128)
    turn_id: str | None = Field(None, min_length=1, max_length=128)
    user_input: str = Field(..., min_length=1)
    assistant_response: str = ""
    occurred_at: datetime | None = None


class TurnAccepted(Schema):
    turn_id: str
    status: str = Field(..., description="queued, extracting, done, skipped or failed")
    extractor: str = Field(..., description="llm or rules: which extractor this service runs")


class TurnOut(Schema):
    turn_id: str
    session_id: str
    status: str = Field(..., alias="state")
    attempts: int
    last_error: str
    extractor: str
    occurred_at: datetime
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    queue_wait_ms: float | None
    processing_ms: float | None
    llm_ms: float | None
    outcome: dict[str, Any]


def _accepted(turn) -> dict:
    return {"turn_id": turn.turn_id, "status": turn.state, "extractor": extractor_state()["active"]}


@router.post("/users/{user_id}/turns", response={202: TurnAccepted, 200: TurnAccepted, **ERRORS})
def post_turn(request, user_id: str, payload: TurnIn):
    """Store a finished turn and extract facts from it in the background (202 at once).

    Posting the same turn_id again returns the stored turn (200) without queueing it twice.
    """
    tenant = require_scope(request, "write")
    # One transaction: a turn refused by turn_submit leaves no new user behind.
    with transaction.atomic():
        user = services.memory_user_get_or_create(tenant=tenant, user_id=user_id)
        turn, created = turns.turn_submit(user=user, **payload.dict())
    return Status(202 if created else 200, _accepted(turn))


@router.get("/users/{user_id}/turns/{turn_id}", response={200: TurnOut, **ERRORS})
def get_turn(request, user_id: str, turn_id: str):
    tenant = require_scope(request, "read")
    user = services.memory_user_get(tenant=tenant, user_id=user_id)
    return turns.turn_get(user=user, turn_id=turn_id)


@router.post("/users/{user_id}/turns/{turn_id}/retry", response={202: TurnAccepted, **ERRORS})
def retry_turn(request, user_id: str, turn_id: str):
    """Queue a failed turn again; its messages were kept (409 if it is not failed)."""
    tenant = require_scope(request, "write")
    user = services.memory_user_get(tenant=tenant, user_id=user_id)
    turn = turns.turn_retry(turn=turns.turn_get(user=user, turn_id=turn_id))
    return Status(202, _accepted(turn))
