"""SQLite: erased rows' bytes leave the files at once, after the erasure commits.

secure_delete=ON (core/db/base.py, and the embedded broker's connections) zeroes the freed
pages of the main file, but the WAL file keeps the pages written before the delete until it
is checkpointed: that is done after commit, and the receipts then say the bytes are gone.
"""

from __future__ import annotations

import logging

from django.db import OperationalError, connection
from django.utils import timezone

logger = logging.getLogger(__name__)


def wal_checkpoint() -> tuple[int, int, int] | None:
    """Copy the WAL into the database file and truncate it to zero bytes.

    TRUNCATE waits (busy_timeout) for readers of older snapshots to finish.
    Returns SQLite's (busy, wal pages, checkpointed pages).
    """
    try:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            row = cursor.fetchone()
    except OperationalError as exc:
        # Another statement of this connection is still open ("table is locked"): the
        # deleted rows are already overwritten (secure_delete); the WAL copy goes at the
        # next checkpoint. An erase or forget that committed must not fail here.
        logger.warning("WAL checkpoint after an erase was refused (%s); it completes at the next checkpoint.", exc)
        return None
    if row and row[0]:
        logger.warning("WAL checkpoint after an erase was blocked by a reader; it completes at the next checkpoint.")
    return (int(row[0]), int(row[1]), int(row[2])) if row else None


def _stamp_receipts_after_checkpoint() -> None:
    """Stamp the receipts waiting for their bytes to go, then checkpoint; a checkpoint that did
    not finish takes the stamp back (the next erasure's checkpoint stamps them)."""
    from facts.models import DeletionReceipt

    waiting = list(DeletionReceipt.objects.filter(bytes_gone_at__isnull=True).values_list("pk", flat=True))
    if waiting:
        # Before the checkpoint, so that the stamp's own write leaves the WAL with it.
        DeletionReceipt.objects.filter(pk__in=waiting).update(bytes_gone_at=timezone.now())
    result = wal_checkpoint()
    if waiting and (result is None or result[0]):
        DeletionReceipt.objects.filter(pk__in=waiting).update(bytes_gone_at=None)


def after_erasure() -> None:
    """The WAL checkpoint, and the receipts stamped when it completed."""
    try:
        _stamp_receipts_after_checkpoint()
    except OperationalError:
        # The erase or forget has committed; its receipt is stamped at the next checkpoint.
        logger.exception("Could not stamp the receipts after a WAL checkpoint.")
