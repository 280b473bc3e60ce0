"""Importing a person's history: checked whole first, then posted turn by turn through the
same path as live turns (`facts.services.turns.turn_post`: consent, memory mode, the
extraction queue), at a pace that leaves room for live traffic.

The pace: at most MEMORY_IMPORT_TURNS_PER_SECOND turns a second, and none while the
tenant has more than MEMORY_IMPORT_MAX_WAITING turns waiting for extraction, so a live
turn never queues behind a whole import (docs/api.md, "Import"). While the service answers
more than MEMORY_IMPORT_YIELD_ABOVE recalls a second (every tenant's: they share the CPU),
one turn every MEMORY_IMPORT_BUSY_SECONDS: each imported turn's extraction and embedding take
CPU the live readers would wait for (docs/measurements.md §22: 16 saturating clients' recall p95
rose 1.085-1.337x at the old pace, 1.036x median with the yield, in alternating windows), and
the trickle still finishes an import on a service that is never quiet.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta
from uuid import UUID

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.errors import Rejected, ServiceError
from facts.models import MemoryUser, Tenant, Turn, TurnState
from facts.services import memory_user_get_or_create
from facts.services.turns import turn_post
from importer.formats import BadExport, ImportedTurn, read
from importer.models import ImportBatch, ImportState, ImportTurn
from recall.models import RecallLog

# How long a held-back import waits before it looks at the extraction queue again.
HELD_BACK_SECONDS = 2.0
# The live readers' rate is counted over this window: log rows reach the table within
# MEMORY_LOG_BUFFER_SECONDS (facts/logbuffer.py), so the window spans several flushes.
LIVE_WINDOW_SECONDS = 10.0


def import_start(*, tenant: Tenant, user_id: str, kind: str, text: str) -> tuple[ImportBatch | None, bool]:
    """Read the whole export (a file's text; `kind` as in importer.formats) and keep its turns
    to post; (batch, created), or (None, False) when it holds no message of the person. Nothing
    is written when the text is not such an export (Rejected). The same text again while its
    import has not finished is that import (a command killed half-way resumes it)."""
    try:
        turns = read(kind, text)
    except BadExport as exc:
        raise Rejected("bad_export", str(exc)) from exc
    if not turns:
        return None, False
    digest = hashlib.sha256(f"{kind}\n{text}".encode()).hexdigest()
    user = memory_user_get_or_create(tenant=tenant, user_id=user_id)
    with transaction.atomic():
        running = ImportBatch.objects.filter(user=user, digest=digest, state=ImportState.RUNNING).first()
        if running is not None:
            return running, False
        batch = ImportBatch.objects.create(tenant=tenant, user=user, format=kind, digest=digest, total=len(turns))
        rows = [ImportTurn(batch=batch, position=n, turn=t.as_json()) for n, t in enumerate(turns)]
        ImportTurn.objects.bulk_create(rows, batch_size=500)
    return batch, True


def waiting_turns(tenant_id: UUID) -> int:
    return Turn.objects.filter(tenant_id=tenant_id).waiting().count()


def live_recalls_per_second() -> float:
    """Recalls (context blocks recall too) answered a second lately, every tenant's."""
    since = timezone.now() - timedelta(seconds=LIVE_WINDOW_SECONDS)
    return RecallLog.objects.filter(created_at__gte=since).count() / LIVE_WINDOW_SECONDS


@dataclass(frozen=True)
class Step:
    batch: ImportBatch | None  # None: the batch is gone (its user was erased)
    posted: int
    held_back: bool  # the extraction queue was too long: nothing posted, try again later
    wait: float = 1.0  # seconds before the next step


def import_step(batch_pk: int, *, turns: int | None = None) -> Step:
    """Post the next `turns` turns (a second's worth by default) of the batch, unless the
    tenant's extraction queue is over MEMORY_IMPORT_MAX_WAITING; one turn when live readers
    are busy (the module's docstring)."""
    batch = ImportBatch.objects.filter(pk=batch_pk).first()
    if batch is None or batch.state == ImportState.DONE:
        return Step(batch, 0, False)
    if waiting_turns(batch.tenant_id) > settings.MEMORY_IMPORT_MAX_WAITING:
        return Step(batch, 0, True, HELD_BACK_SECONDS)
    if live_recalls_per_second() > settings.MEMORY_IMPORT_YIELD_ABOVE:
        posted = _post_next(batch_pk, 1)
        return Step(posted.batch, posted.posted, False, settings.MEMORY_IMPORT_BUSY_SECONDS)
    return _post_next(batch_pk, turns or settings.MEMORY_IMPORT_TURNS_PER_SECOND)


def _post_next(batch_pk: int, turns: int) -> Step:
    with transaction.atomic():
        # Held until commit: an erase of the user (which deletes the batch) waits for this
        # step or comes before it, never in the middle of it.
        batch = ImportBatch.objects.select_for_update().select_related("user").filter(pk=batch_pk).first()
        if batch is None:
            return Step(None, 0, False)
        chunk = list(batch.turns.order_by("position")[:turns])
        for row in chunk:
            _post(batch, ImportedTurn.from_json(row.turn))
        ImportTurn.objects.filter(pk__in=[row.pk for row in chunk]).delete()
        if not batch.turns.exists():
            batch.state, batch.finished_at = ImportState.DONE, timezone.now()
        batch.save()
    return Step(batch, len(chunk), False)


def _post(batch: ImportBatch, turn: ImportedTurn) -> None:
    user: MemoryUser = batch.user
    if turn.refusal:
        batch.refused.append({"turn_id": turn.turn_id, "rule": "bad_turn", "detail": turn.refusal})
        return
    try:
        # A savepoint: a refused turn rolls back only itself.
        with transaction.atomic():
            posted, created = turn_post(
                tenant=batch.tenant,
                user_id=user.external_id,
                session_id=turn.session_id,
                turn_id=turn.turn_id,
                user_input=turn.user_input,
                assistant_response=turn.assistant_response,
                occurred_at=turn.occurred_at,
            )
    except ServiceError as exc:
        rule = getattr(exc, "rule", type(exc).__name__.lower())
        batch.refused.append({"turn_id": turn.turn_id, "rule": rule, "detail": exc.detail})
        return
    if not created:
        batch.existing += 1
    elif posted.state == TurnState.WITHHELD:
        batch.withheld += 1
    else:
        batch.added += 1
