"""The database side of extracting one turn before the extractor: claim it and prepare its job.

What the extractor sees for turn T ("the new messages of the session since
its cursor"): T itself plus the session's turns after the cursor that failed
earlier and are not being handled by a chain of their own. A failed turn is
therefore fed again by the next turn of its session, and the cursor moves
only when a result has been applied (facts.extraction.apply).

Every transition is a compare-and-set on the turn's state column, so
duplicate deliveries of a task change nothing; they are the Turn queryset's methods
(facts.turn_state), which the apply step (facts.extraction.apply) calls too.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from facts.extraction.job import Job, ms
from facts.extraction.salience import skip_reason
from facts.models import Fact, MemoryMode, SessionCursor, Turn, TurnState
from facts.services.memory_mode import NO_WRITES
from facts.turn_state import by_key

log = logging.getLogger(__name__)

WINDOW_MAX_TURNS = 10
ASSISTANT_CHARS = 4_000  # the assistant's reply is context only; its tail matters little


def _window(turn: Turn) -> list[Turn]:
    """Earlier failed turns of the session after its cursor (newest first, capped), then `turn`."""
    # The cursor is read in the same statement (no cursor, or none applied yet: every earlier turn).
    cursor = SessionCursor.objects.filter(user_id=turn.user_id, session_id=turn.session_id)
    applied = Coalesce(Subquery(cursor.values("last_applied_turn_id")[:1]), Value(0))
    earlier = Turn.objects.filter(
        user_id=turn.user_id, session_id=turn.session_id, state=TurnState.FAILED, pk__lt=turn.pk, pk__gt=applied
    )
    budget = settings.MEMORY_MAX_TURN_CHARS * 2 - len(turn.user_input)
    picked = []
    for other in earlier.order_by("-pk")[: WINDOW_MAX_TURNS - 1]:
        budget -= len(other.user_input)
        if budget < 0:
            # Left failed and visible; a retry of that turn feeds it on its own.
            break
        picked.append(other)
    return [*reversed(picked), turn]


def _live_facts(user_id: int) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Live facts for the prompt, most recently mentioned first, within the character cap."""
    budget = settings.MEMORY_EXTRACTION_FACTS_CHARS
    facts: list[dict[str, Any]] = []
    refs: dict[str, str] = {}
    rows = (
        Fact.objects.live()
        .filter(user_id=user_id)
        .order_by("-last_mentioned_at", "-id")
        .values("uuid", "text", "key", "category", "confidence")[:1000]
    )
    for row in rows:
        budget -= len(row["text"]) + 40
        if budget < 0:
            break
        ref = f"f{len(facts) + 1}"
        refs[ref] = str(row["uuid"])
        facts.append(
            {
                "ref": ref,
                "text": row["text"],
                "key": row["key"],
                "category": row["category"],
                "confidence": row["confidence"],
            }
        )
    return facts, refs


def prepare(
    turn_pk: int, enqueued_at: float | None, *, queued_only: bool = False, user_pk: int | None = None
) -> Job | None:
    """Claim the turn and build the extractor's job, or None (skipped, gone, or already finished;
    with `queued_only`, also claimed already: `Turn.objects.claim`). `user_pk`, when the message
    names the turn's person, keeps every read and write of the turn in that person's partition."""
    started = time.time()
    with transaction.atomic():
        if not Turn.objects.claim(turn_pk, now=timezone.now(), queued_only=queued_only, user_id=user_pk):
            log.info("Turn %s is finished or gone; nothing to prepare (duplicate delivery?)", turn_pk)
            return None
        # The person's row comes with the turn: their memory mode as stored now, in the same read.
        turn = Turn.objects.select_related("user").get(**by_key(turn_pk, user_pk))
        # Accepted before the person's memory became read_only or off: nothing goes to the extractor.
        mode = turn.user.memory_mode or MemoryMode.AUTO
        if mode in NO_WRITES:
            _skip(turn, f"skipped: memory mode {mode}", started, enqueued_at)
            return None
        window = _window(turn)
        reason = skip_reason(turn.user_input)
        if reason and len(window) == 1:
            _skip(turn, f"skipped: {reason}", started, enqueued_at)
            return None
        facts, refs = _live_facts(turn.user_id)
    return Job(
        turn_pk=turn.pk,
        turn_id=turn.turn_id,
        tenant_id=str(turn.tenant_id),
        user_pk=turn.user_id,
        session_id=turn.session_id,
        window=[t.pk for t in window],
        now=turn.occurred_at.isoformat(),
        facts=facts,
        refs=refs,
        messages=[
            {
                "turn_id": t.turn_id,
                "occurred_at": t.occurred_at.isoformat(),
                "user": t.user_input,
                "assistant": t.assistant_response[:ASSISTANT_CHARS],
            }
            for t in window
        ],
        timing={
            "enqueued_at": enqueued_at or started,
            "prepare_started": started,
            "prepare_ms": ms(time.time() - started),
        },
    )


def _skip(turn: Turn, reason: str, started: float, enqueued_at: float | None) -> None:
    Turn.objects.skip(
        turn,
        reason=reason,
        queue_wait_ms=ms(started - enqueued_at) if enqueued_at else None,
        processing_ms=ms(time.time() - started),
    )
