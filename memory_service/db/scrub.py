"""After an erasure commits: make the database files hold no trace of what was deleted.

secure_delete=ON (memory_service/db/base.py) zeroes the freed pages of the main
file, but a WAL file keeps the pages written before the delete until it is
checkpointed. Every forget and erase, through every door, calls
`scrub_after_commit` (docs/design.md §3, §8).
"""

from __future__ import annotations

import logging

from django.db import OperationalError, connection, transaction

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
    return tuple(row) if row else None


def scrub_after_commit() -> None:
    """Checkpoint the WAL once the current transaction commits (at once outside one)."""
    transaction.on_commit(wal_checkpoint)
