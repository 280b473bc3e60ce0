"""The database side of extracting one turn: prepare the extractor's job, record the outcome or a failure.

What the extractor sees for turn T ("the new messages of the session since
its cursor"): T itself plus the session's turns after the cursor that failed
earlier and are not being handled by a chain of their own. A failed turn is
therefore fed again by the next turn of its session, and the cursor moves
only when a result has been applied (facts.extraction.apply).

Every transition is a compare-and-set on the turn's state column, so
duplicate deliveries of a task change nothing.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.db import transaction
from django.db.models import F, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from facts.extraction.salience import skip_reason
from facts.models import Fact, MemoryMode, SessionCursor, Turn, TurnState
from facts.services.memory_mode import NO_WRITES
from facts.signals import index_dirty, turn_failed, turn_processed

log = logging.getLogger(__name__)

WINDOW_MAX_TURNS = 10
ASSISTANT_CHARS = 4_000  # the assistant's reply is context only; its tail matters little


def _ms(seconds: float) -> float:
    return round(max(seconds, 0.0) * 1000, 3)


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


def _live_facts(user_id: int) -> tuple[list[dict], dict[str, str]]:
    """Live facts for the prompt, most recently mentioned first, within the character cap."""
    budget = settings.MEMORY_EXTRACTION_FACTS_CHARS
    facts: list[dict] = []
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


def prepare(turn_pk: int, enqueued_at: float | None) -> dict | None:
    """Claim the turn and build the extractor's job, or None (skipped, gone, or already finished)."""
    started = time.time()
    now = timezone.now()
    with transaction.atomic():
        claimed = Turn.objects.filter(
            pk=turn_pk, state__in=[TurnState.QUEUED, TurnState.FAILED, TurnState.EXTRACTING]
        ).update(state=TurnState.EXTRACTING, attempts=F("attempts") + 1, started_at=now)
        if not claimed:
            log.info("Turn %s is finished or gone; nothing to prepare (duplicate delivery?)", turn_pk)
            return None
        # The person's row comes with the turn: their memory mode as stored now, in the same read.
        turn = Turn.objects.select_related("user").get(pk=turn_pk)
        # Accepted before the person's memory became read_only or off: nothing goes to the extractor.
        mode = turn.user.memory_mode or MemoryMode.AUTO
        if mode in NO_WRITES:
            _finish_skipped(turn, f"skipped: memory mode {mode}", started, enqueued_at)
            return None
        window = _window(turn)
        reason = skip_reason(turn.user_input)
        if reason and len(window) == 1:
            _finish_skipped(turn, f"skipped: {reason}", started, enqueued_at)
            return None
        facts, refs = _live_facts(turn.user_id)
    prepare_ms = _ms(time.time() - started)
    return {
        "turn_pk": turn.pk,
        "turn_id": turn.turn_id,
        "tenant_id": str(turn.tenant_id),
        "user_pk": turn.user_id,
        "session_id": turn.session_id,
        "window": [t.pk for t in window],
        "now": turn.occurred_at.isoformat(),
        "facts": facts,
        "refs": refs,
        "messages": [
            {
                "turn_id": t.turn_id,
                "occurred_at": t.occurred_at.isoformat(),
                "user": t.user_input,
                "assistant": t.assistant_response[:ASSISTANT_CHARS],
            }
            for t in window
        ],
        "timing": {"enqueued_at": enqueued_at or started, "prepare_started": started, "prepare_ms": prepare_ms},
    }


def _finish_skipped(turn: Turn, reason: str, started: float, enqueued_at: float | None) -> None:
    Turn.objects.filter(pk=turn.pk).update(
        state=TurnState.SKIPPED,
        finished_at=timezone.now(),
        last_error="",
        extractor="",
        queue_wait_ms=_ms(started - enqueued_at) if enqueued_at else None,
        processing_ms=_ms(time.time() - started),
        llm_ms=0.0,
        outcome=empty_outcome(reason),
    )
    announce_turn_processed(turn, TurnState.SKIPPED)


def empty_outcome(reason: str = "") -> dict:
    return {
        "added": [],
        "superseded": [],
        "expired": [],
        "pending": [],
        "duplicates": [],
        "rejected": [],
        "ignored_ids": [],
        "edges": 0,
        "reason": reason,
    }


def announce_turn_processed(turn: Turn, state: str) -> None:
    """Inside the transaction: a turn done is an episode for the index now; after commit,
    turn_processed (the profile projection counts these)."""
    tenant_id, user_id, pk = turn.tenant_id, turn.user_id, turn.pk
    if state == TurnState.DONE:
        index_dirty.send(sender=Turn, user_id=user_id, fact_ids=[], turn_ids=[pk])
    transaction.on_commit(
        lambda: turn_processed.send(sender=Turn, tenant_id=tenant_id, user_id=user_id, turn_id=pk, state=state)
    )


def timings(job: dict, result: dict, apply_started: float) -> dict:
    """Queue wait (the three hops) and processing (the three tasks) of one turn, in ms."""
    t = {**job.get("timing", {}), **result.get("timing", {})}
    waits = [
        t.get("prepare_started", apply_started) - t.get("enqueued_at", apply_started),
        t.get("llm_started", apply_started) - t.get("llm_sent_at", apply_started),
        apply_started - t.get("apply_sent_at", apply_started),
    ]
    return {
        "queue_wait_ms": round(sum(_ms(w) for w in waits), 3),
        "processing_ms": round(
            t.get("prepare_ms", 0.0) + t.get("llm_task_ms", 0.0) + _ms(time.time() - apply_started), 3
        ),
        "llm_ms": round(result.get("llm_ms", 0.0), 3),
    }


def fail(job: dict, result: dict, apply_started: float) -> None:
    """Record a failed extraction; the cursor stays, so the messages are fed again later."""
    reason = result.get("error") or "unknown failure"
    with transaction.atomic():
        updated = Turn.objects.filter(pk=job["turn_pk"], state=TurnState.EXTRACTING).update(
            state=TurnState.FAILED,
            last_error=reason[:2000],
            finished_at=timezone.now(),
            extractor=result.get("extractor", ""),
            outcome=empty_outcome(f"failed: {reason[:500]}"),
            **timings(job, result, apply_started),
        )
        if updated:
            turn_failed.send(sender=Turn, turn_pk=job["turn_pk"])
    if updated:
        log.warning("Extraction of turn %s failed: %s", job["turn_pk"], reason)
