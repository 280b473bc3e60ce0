"""Embedder state every process can read: the embed workers' reports, stored in the database.

recall.embeddings keeps the state of THIS process (it imports no models: it
runs on embed workers that may have no database). Workers send their
successes and failures through the db queue (recall.tasks.note_embedder);
/api/v1/health merges them with the local state, the newest event winning.
"""

from __future__ import annotations

import socket
import time
from typing import Any

from django.db.models import Q

from recall.embeddings import embedder_state
from recall.models import EmbedderReport

REPORT_PK = 1


class ReportPace:
    """When a process tells health about its embedder: a failure at once, a success after a
    failure, else a success once every `ok_every` seconds (a report per batch was a `db` task per
    applied turn, docs/measurements.md §20)."""

    def __init__(self, ok_every: float = 60.0) -> None:
        self.ok_every = ok_every
        self.last: dict[str, float] = {}  # "ok" / "error" -> when last reported (time.time())

    def due(self, error: str, now: float) -> bool:
        """Whether this outcome is reported; if so it counts as reported at `now`."""
        recovered = self.last.get("error", 0) > self.last.get("ok", 0)
        if not error and not recovered and now - self.last.get("ok", 0) < self.ok_every:
            return False
        self.last["error" if error else "ok"] = now
        return True


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


_written_here = ReportPace()


def report_embedder_here(error: str) -> None:
    """A process with the database (the indexer) writes its embedder's state directly, paced."""
    now = time.time()
    if _written_here.due(error, now):
        embedder_report_save(error=error, at=now, worker=socket.gethostname())
