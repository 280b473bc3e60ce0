"""After an erasure commits: make the database and broker files hold no trace of what was deleted.

SQLite: secure_delete=ON (core/db/base.py, and the embedded broker's
connections) zeroes the freed pages of the main file, but a WAL file keeps the
pages written before the delete until it is checkpointed: that is done after
commit, and the receipts then say the bytes are gone.
PostgreSQL: a delete leaves dead tuples in the table and index pages, and a plain
VACUUM leaves their bytes in the freed space; only a rewrite removes them, and a
rewrite locks the table. So the request rewrites nothing: it leaves a
PendingCompaction row in its own transaction, and the background pass of
facts/compactor.py rewrites each table once for every erasure before
it (MEMORY_POSTGRES_ERASE_VACUUM=full, the default; plain prunes only; off leaves
it to autovacuum). The WAL keeps its copy until its segments are recycled
(docs/deployment.md, "What erased means on PostgreSQL").
Every forget and erase, through every door, calls `scrub_after_commit`
(docs/design.md §3, §8); an erase also drops the messages still queued for the
user from the embedded broker.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.conf import settings
from django.db import OperationalError, connection, transaction
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
    return tuple(row) if row else None


def user_data_tables() -> set[str]:
    """The tables of the apps that hold user data, and the recall index's raw tables."""
    from django.apps import apps

    names = {m._meta.db_table for label in USER_DATA_APPS for m in apps.get_app_config(label).get_models()}
    return names | RECALL_INDEX_TABLES


USER_DATA_APPS = ("facts", "recall", "profiles", "importer", "webhooks")
# vector_b: the second vector table of a live model switch (recall/switch.py).
RECALL_INDEX_TABLES = {
    f"recall_{side}{part}" for side in ("", "episode_") for part in ("fts", "doc", "vector", "vector_b")
}


def note_erasure(users: Iterable[int] = ()) -> None:
    """PostgreSQL: leave work for the compaction pass, in the erasing transaction (or at once
    outside one), so a crash after commit cannot lose it. An INSERT into a table of its own:
    no lock another tenant's request waits for. Naming the users whose rows went lets the pass
    rewrite only their partitions; with none named it rewrites every partition."""
    if connection.vendor != "postgresql" or settings.MEMORY_POSTGRES_ERASE_VACUUM == "off":
        return
    from facts.models import PendingCompaction

    named = sorted(set(users))
    PendingCompaction.objects.bulk_create([PendingCompaction(user_pk=pk) for pk in named] or [PendingCompaction()])


def _stamp_receipts_after_checkpoint() -> None:
    """SQLite: stamp the receipts waiting for their bytes to go, then checkpoint; a checkpoint
    that did not finish takes the stamp back (the next erasure's checkpoint stamps them)."""
    from facts.models import DeletionReceipt

    waiting = list(DeletionReceipt.objects.filter(bytes_gone_at__isnull=True).values_list("pk", flat=True))
    if waiting:
        # Before the checkpoint, so that the stamp's own write leaves the WAL with it.
        DeletionReceipt.objects.filter(pk__in=waiting).update(bytes_gone_at=timezone.now())
    result = wal_checkpoint()
    if waiting and (result is None or result[0]):
        DeletionReceipt.objects.filter(pk__in=waiting).update(bytes_gone_at=None)


def compact_after_erasure() -> None:
    """SQLite only: the WAL checkpoint. PostgreSQL's compaction is facts/compactor.py."""
    if connection.vendor == "sqlite":
        try:
            _stamp_receipts_after_checkpoint()
        except OperationalError:
            # The erase or forget has committed; its receipt is stamped at the next checkpoint.
            logger.exception("Could not stamp the receipts after a WAL checkpoint.")


def scrub_after_commit(*, erased_user: int | None = None, users: Iterable[int] = ()) -> None:
    """Once the current transaction commits (at once outside one): checkpoint the WAL and,
    with the embedded broker, drop the erased user's queued messages and checkpoint its WAL.
    On PostgreSQL, note the erasure for the compaction pass now, inside the transaction
    (`users`: whose rows a forget deleted)."""
    note_erasure([erased_user] if erased_user is not None else users)
    transaction.on_commit(lambda: _scrub(erased_user))


def _scrub(erased_user: int | None) -> None:
    compact_after_erasure()
    url = settings.CELERY_BROKER_URL
    if not url.startswith("sqlite:"):
        # Redis keeps messages in memory until a worker takes them (docs/design.md §8).
        return
    from core import broker

    try:
        if erased_user is not None:
            broker.drop_user_messages(url, erased_user)
        else:
            broker.checkpoint(url)
    except Exception:
        # The erase or forget has committed; the broker's copy goes at its next checkpoint.
        logger.exception("Could not scrub the embedded broker after an erasure; it completes later.")
