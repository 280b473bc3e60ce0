"""Turns from the API and the retry command: store a turn, queue its extraction, retry a failed one.

The state machine of a turn: queued -> extracting -> done | skipped | failed,
and failed -> queued again on a retry. Every transition is a compare-and-set
on the state column, so duplicate deliveries of a task change nothing. The
extraction itself (facts.tasks, facts.extraction.pipeline) moves a turn past
queued.
"""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from facts.models import MemoryUser, Turn, TurnState
from facts.services.users import validate_id
from facts.tasks import extract_turn
from memory_service.errors import Conflict, NotFound, Rejected


def _check_text(value: str, name: str, *, required: bool) -> str:
    value = value or ""
    if required and not value.strip():
        raise Rejected("empty", f"{name} is empty.")
    if len(value) > settings.MEMORY_MAX_TURN_CHARS:
        raise Rejected(
            "turn_too_long", f"{name} is {len(value)} characters; the limit is {settings.MEMORY_MAX_TURN_CHARS}."
        )
    if "\x00" in value:
        raise Rejected("control_characters", f"{name} contains a NUL character.")
    return value


def enqueue(turn: Turn) -> None:
    """Queue the turn's extraction once the surrounding transaction commits."""
    pk = turn.pk
    transaction.on_commit(lambda: extract_turn.apply_async((pk, time.time()), queue=settings.MEMORY_QUEUE_DB))


def turn_submit(
    *,
    user: MemoryUser,
    session_id: str,
    user_input: str,
    turn_id: str | None = None,
    assistant_response: str = "",
    occurred_at: datetime | None = None,
) -> tuple[Turn, bool]:
    """Store a turn and queue its extraction; (turn, created). A repeated turn_id is not queued twice."""
    # Surrounding spaces are not part of a session or turn id (a user id is taken as given).
    session_id = validate_id((session_id or "").strip(), "session_id")
    turn_id = validate_id(turn_id.strip(), "turn_id") if turn_id is not None else uuid.uuid4().hex
    user_input = _check_text(user_input, "user_input", required=True)
    assistant_response = _check_text(assistant_response, "assistant_response", required=False)
    if occurred_at is not None and timezone.is_naive(occurred_at):
        occurred_at = timezone.make_aware(occurred_at, UTC)
    existing = Turn.objects.filter(user=user, turn_id=turn_id).first()
    if existing is None:
        try:
            with transaction.atomic():
                turn = Turn.objects.create(
                    tenant_id=user.tenant_id,
                    user=user,
                    session_id=session_id,
                    turn_id=turn_id,
                    user_input=user_input,
                    assistant_response=assistant_response,
                    occurred_at=occurred_at or timezone.now(),
                )
                enqueue(turn)
            return turn, True
        except IntegrityError:  # the same turn posted twice at once
            existing = Turn.objects.get(user=user, turn_id=turn_id)
    # A client retrying its POST gets the stored turn; different content under the same id is a conflict.
    if existing.session_id != session_id or existing.user_input != user_input:
        raise Conflict(f"Turn {turn_id!r} already exists with different content.")
    return existing, False


def turn_get(*, user: MemoryUser, turn_id: str) -> Turn:
    turn = Turn.objects.filter(user=user, turn_id=turn_id).first()
    if turn is None:
        raise NotFound("Turn not found.")
    return turn


def turn_retry(*, turn: Turn) -> Turn:
    """Queue a failed turn again (its messages were kept: the cursor did not move)."""
    with transaction.atomic():
        if not Turn.objects.filter(pk=turn.pk, state=TurnState.FAILED).update(state=TurnState.QUEUED):
            turn.refresh_from_db()
            raise Conflict(f"Only a failed turn can be retried; this one is {turn.state}.")
        turn.refresh_from_db()
        enqueue(turn)
    return turn


def retry_turns(*, stuck_before: datetime | None = None, tenant=None) -> int:
    """Queue every failed turn again, and turns stuck queued/extracting since before `stuck_before`."""
    failed = Turn.objects.filter(state=TurnState.FAILED)
    if tenant is not None:
        failed = failed.filter(tenant=tenant)
    count = 0
    for turn in failed.order_by("pk"):
        try:
            turn_retry(turn=turn)
            count += 1
        except Conflict:
            pass
    if stuck_before is not None:
        stuck = Turn.objects.filter(state__in=[TurnState.QUEUED, TurnState.EXTRACTING], created_at__lt=stuck_before)
        if tenant is not None:
            stuck = stuck.filter(tenant=tenant)
        for turn in stuck.order_by("pk"):
            with transaction.atomic():
                Turn.objects.filter(pk=turn.pk, state=turn.state).update(state=TurnState.QUEUED)
                enqueue(turn)
            count += 1
    return count
