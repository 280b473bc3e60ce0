"""Per-request log rows (RecallLog, ContextLog) written in bulk, off the request path.

A recall or context request only reads; writing its log row there would make
every such request queue for SQLite's single write lock. Instead the row is
appended to an in-process buffer and a background thread writes the buffer
with one `bulk_create` per model every MEMORY_LOG_BUFFER_SECONDS, sooner when
MEMORY_LOG_BUFFER_ROWS rows are waiting, and at process exit. Readers of the
rows (profiles.metrics, profiles.prometheus) call `flush()` first so they see
this process's rows; other processes' rows arrive within the flush interval.
MEMORY_LOG_BUFFER_ROWS=0 writes each row at once (the tests' default).
See docs/measurements.md, "Request path".
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
from collections import defaultdict
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, models, transaction

logger = logging.getLogger(__name__)

_rows: list[models.Model] = []
_lock = threading.Lock()
_wake = threading.Event()
_flusher_pid: int | None = None


def save_later(row: models.Model) -> None:
    """Queue an unsaved log row; written by the flusher thread (or now, when buffering is off)."""
    limit = settings.MEMORY_LOG_BUFFER_ROWS
    if limit <= 0:
        row.save()
        return
    with _lock:
        _rows.append(row)
        full = len(_rows) >= limit
    _ensure_flusher()
    if full:
        _wake.set()


def pending() -> int:
    return len(_rows)


def flush() -> int:
    """Write every queued row now, in this thread; returns how many were queued."""
    with _lock:
        rows = list(_rows)
        _rows.clear()
    by_model: dict[type[models.Model], list[models.Model]] = defaultdict(list)
    for row in _of_live_tenants(rows):
        by_model[type(row)].append(row)
    for model, batch in by_model.items():
        _write(model, batch)
    return len(rows)


def _of_live_tenants(rows: list[Any]) -> list[Any]:
    """Drop rows of a tenant erased while they waited (every buffered model has `tenant_id`)."""
    from facts.models import Tenant  # facts imports this package's modules

    if not rows:
        return rows
    live = set(Tenant.objects.filter(pk__in={row.tenant_id for row in rows}).values_list("pk", flat=True))
    return [row for row in rows if row.tenant_id in live]


def _write(model: type[models.Model], batch: list[models.Model]) -> None:
    try:
        with transaction.atomic():
            model._default_manager.bulk_create(batch)
    except IntegrityError:
        # A tenant erased between the check above and this write: keep the others.
        for row in batch:
            try:
                with transaction.atomic():
                    row.save()
            except IntegrityError:
                logger.info("dropped a %s row of a deleted tenant", model.__name__)


def _ensure_flusher() -> None:
    global _flusher_pid
    if _flusher_pid == os.getpid():
        return
    with _lock:
        if _flusher_pid == os.getpid():  # started by another thread meanwhile
            return
        _flusher_pid = os.getpid()  # a forked worker starts its own thread
    threading.Thread(target=_run_flusher, name="log-buffer-flusher", daemon=True).start()


def _run_flusher() -> None:
    while True:
        _wake.wait(timeout=settings.MEMORY_LOG_BUFFER_SECONDS)
        _wake.clear()
        try:
            flush()
        except Exception:  # never let the thread die; the rows are only metrics
            logger.exception("log buffer flush failed")
        finally:
            connection.close()


def _flush_at_exit() -> None:
    try:
        flush()
    except Exception:  # the database may be gone already (a test run's teardown)
        logger.exception("log buffer: rows lost at exit")


atexit.register(_flush_at_exit)
