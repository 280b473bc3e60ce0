"""Embedder state every process can read: the embed workers' reports, stored in the database.

recall.embeddings keeps the state of THIS process (it imports no models: it
runs on embed workers that may have no database). Workers send their
successes and failures through the db queue (recall.tasks.note_embedder);
/api/v1/health merges them with the local state, the newest event winning.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from recall.embeddings import embedder_state
from recall.models import EmbedderReport

REPORT_PK = 1


def embedder_report_save(*, error: str, at: float, worker: str) -> None:
    """Record one worker event; an older event delivered late never overwrites a newer one."""
    EmbedderReport.objects.get_or_create(pk=REPORT_PK)
    rows = EmbedderReport.objects.filter(pk=REPORT_PK)
    if error:
        rows.filter(Q(last_error_at__isnull=True) | Q(last_error_at__lt=at)).update(
            last_error=error[:500], last_error_at=at, worker=worker[:200]
        )
    else:
        rows.filter(Q(last_ok_at__isnull=True) | Q(last_ok_at__lt=at)).update(last_ok_at=at)


def embedder_health() -> dict[str, Any]:
    """embedder_state() of this process, with the workers' newest error and success folded in."""
    state = embedder_state()
    report = EmbedderReport.objects.filter(pk=REPORT_PK).first()
    if report is None:
        return {**state, "workers": None}
    if report.last_error_at and report.last_error_at > (state["last_error_at"] or 0):
        state["last_error"], state["last_error_at"] = report.last_error, report.last_error_at
    state["last_ok_at"] = max(report.last_ok_at or 0, state["last_ok_at"] or 0) or None
    recovered = (state["last_ok_at"] or 0) > (state["last_error_at"] or 0)
    state["ready"] = state["configured"] and (state["last_error"] is None or recovered)
    state["workers"] = {
        "last_error": report.last_error or None,
        "last_error_at": report.last_error_at,
        "last_ok_at": report.last_ok_at,
        "worker": report.worker,
    }
    return state
