"""Turn routes (docs/api.md): post a finished turn for background extraction, read its state."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from ninja import Field, Router, Schema, Status
from pydantic import StrictBool

from core.schemas import ERRORS, IsoDateTime, ObjectIn, TurnId, UserId, client_id, errors
from facts import services
from facts.auth import KeyRequest, require_scope
from facts.extraction.status import active_extractor
from facts.models import Turn
from facts.services import turns

router = Router(tags=["turns"])


# Turn texts: anything but NUL, and the user's part not blank (facts.services.turns
# enforces both with a 422 and its rule; the schema states them).
_TURN_TEXT = {"pattern": "^[^\\u0000]*$", "maxLength": settings.MEMORY_MAX_TURN_CHARS}
# str.strip() also takes \x1c-\x1f and \x85 for blanks, which a regex's \s does not.
_USER_INPUT = {**_TURN_TEXT, "pattern": "^[^\\u0000]*[^\\s\\u0000\\u001c-\\u001f\\u0085][^\\u0000]*$"}


class TurnIn(ObjectIn):
    session_id: str = Field(..., min_length=1, max_length=128, json_schema_extra=client_id("The conversation"))
    turn_id: str | None = Field(
        None, min_length=1, max_length=128, json_schema_extra=client_id("Your id for the turn; assigned if absent")
    )
    user_input: str = Field(..., min_length=1, json_schema_extra=_USER_INPUT)
    assistant_response: str = Field("", json_schema_extra=_TURN_TEXT)
    occurred_at: IsoDateTime | None = None
    remember: StrictBool = Field(
        True,
        description="false: nothing is extracted from this turn and only its id and a digest are kept "
        "(for a retry under the same turn_id)",
    )


class ForgotPrevious(Schema):
    turn_id: str = Field(..., description="The session's previous turn, now forgotten with what it stored")
    facts: int = Field(..., description="How many facts it had stored")


class TurnAccepted(Schema):
    turn_id: str
    status: str = Field(..., description="queued, extracting, done, skipped, failed or withheld")
    extractor: str = Field(..., description="llm or rules: which extractor this service runs")
    remembered: bool = Field(..., description="false: the turn was withheld; `reason` says why")
    reason: str | None = Field(
        None,
        description="Why a turn is not remembered: caller (remember=false), asked (the person said so), "
        "read_only or off (their memory mode); null when remembered",
    )
    forgot_previous: ForgotPrevious | None = Field(
        None, description="The person asked to forget what they had just said: the turn that went"
    )


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


def _accepted(turn: Turn) -> dict[str, Any]:
    withheld = turns.withheld_reason(turn)
    forgot = None
    if withheld is not None and withheld.forgot_turn_id:
        forgot = {"turn_id": withheld.forgot_turn_id, "facts": withheld.forgot_facts}
    return {
        "turn_id": turn.turn_id,
        "status": turn.state,
        "extractor": active_extractor(),
        "remembered": withheld is None,
        "reason": withheld.reason if withheld else None,
        "forgot_previous": forgot,
    }


# OpenAPI links: a posted turn names the routes that read and retry it, with the ids to call
# them with (so a client, or schemathesis's stateful phase, reaches them from the turn).
_TURN_ID_LINKS = {
    "parameters": {"user_id": "$request.path.user_id", "turn_id": "$response.body#/turn_id"},
}
_TURN_LINKS = {
    "links": {
        "GetTurn": {"operationId": "facts_turns_api_get_turn", **_TURN_ID_LINKS},
        "RetryTurn": {"operationId": "facts_turns_api_retry_turn", **_TURN_ID_LINKS},
    }
}


@router.post(
    "/users/{user_id}/turns",
    response={202: TurnAccepted, 200: TurnAccepted, **ERRORS},
    openapi_extra={"responses": {202: _TURN_LINKS, 200: _TURN_LINKS}},
)
def post_turn(request: KeyRequest, user_id: UserId, payload: TurnIn) -> Status[dict[str, Any]]:
    """Store a finished turn and extract facts from it in the background (202 at once).

    Posting the same turn_id again returns the stored turn (200) without queueing it twice.
    A turn not to be remembered (remember=false, the person asking, their memory mode) is
    withheld: nothing is extracted, its words are not kept, and the answer says why.
    """
    tenant = require_scope(request, "write")
    turn, created = turns.turn_post(tenant=tenant, user_id=user_id, **payload.dict())
    return Status(202 if created else 200, _accepted(turn))


@router.get("/users/{user_id}/turns/{turn_id}", response={200: TurnOut, **errors(401, 403, 404)})
def get_turn(request: KeyRequest, user_id: UserId, turn_id: TurnId) -> Turn:
    tenant = require_scope(request, "read")
    user = services.memory_user_get(tenant=tenant, user_id=user_id)
    return turns.turn_get(user=user, turn_id=turn_id)


@router.post("/users/{user_id}/turns/{turn_id}/retry", response={202: TurnAccepted, **errors(401, 403, 404, 409)})
def retry_turn(request: KeyRequest, user_id: UserId, turn_id: TurnId) -> Status[dict[str, Any]]:
    """Queue a failed turn again; its messages were kept (409 if it is not failed)."""
    tenant = require_scope(request, "write")
    user = services.memory_user_get(tenant=tenant, user_id=user_id)
    turn = turns.turn_retry(turn=turns.turn_get(user=user, turn_id=turn_id))
    return Status(202, _accepted(turn))
