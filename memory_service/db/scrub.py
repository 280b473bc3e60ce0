"""After an erasure commits: make the database and broker files hold no trace of what was deleted.

SQLite: secure_delete=ON (memory_service/db/base.py, and the embedded broker's
connections) zeroes the freed pages of the main file, but a WAL file keeps the
pages written before the delete until it is checkpointed.
PostgreSQL: a delete leaves dead tuples in the table and index pages until a
VACUUM; MEMORY_POSTGRES_ERASE_VACUUM=full (the default) rewrites the user-data
tables so the old pages leave the data files, plain marks them reusable, off
leaves it to autovacuum. The WAL keeps its copy until its segments are recycled
(docs/deployment.md, "What erased means on PostgreSQL").
Every forget and erase, through every door, calls `scrub_after_commit`
(docs/design.md §3, §8); an erase also drops the messages still queued for the
user from the embedded broker.
"""

from __future__ import annotations

import logging

from django.conf import settings
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


def vacuum_user_data() -> str:
    """PostgreSQL: VACUUM (FULL by default) every table of the apps that hold user data."""
    mode = settings.MEMORY_POSTGRES_ERASE_VACUUM
    if mode == "off":
        return "off"
    if connection.in_atomic_block:
        # VACUUM cannot run inside a transaction; autovacuum follows.
        logger.warning("VACUUM after an erase skipped: still inside a transaction.")
        return "skipped"
    tables = sorted(set(connection.introspection.table_names()) & _user_data_tables())
    # ANALYZE too: column statistics (pg_statistic) sample values of the rows, erased ones included.
    command = "VACUUM (FULL, ANALYZE)" if mode == "full" else "VACUUM (ANALYZE)"
    with connection.cursor() as cursor:
        cursor.execute(f"{command} {', '.join(connection.ops.quote_name(t) for t in tables)}")
    return mode


def _user_data_tables() -> set[str]:
    from django.apps import apps

    names = {m._meta.db_table for label in USER_DATA_APPS for m in apps.get_app_config(label).get_models()}
    return names | RECALL_INDEX_TABLES


USER_DATA_APPS = ("facts", "recall", "profiles")
RECALL_INDEX_TABLES = {f"recall_{side}{part}" for side in ("", "episode_") for part in ("fts", "doc", "vector")}


def compact_after_erasure() -> None:
    if connection.vendor == "sqlite":
        wal_checkpoint()
    elif connection.vendor == "postgresql":
        try:
            vacuum_user_data()
        except Exception:
            logger.exception("VACUUM after an erase failed; autovacuum removes the dead rows later.")


def scrub_after_commit(*, erased_user: int | None = None) -> None:
    """Once the current transaction commits (at once outside one): checkpoint the WAL and,
    with the embedded broker, drop the erased user's queued messages and checkpoint its WAL."""
    transaction.on_commit(lambda: _scrub(erased_user))


def _scrub(erased_user: int | None) -> None:
    compact_after_erasure()
    url = settings.CELERY_BROKER_URL
    if not url.startswith("sqlite:"):
        # Redis keeps messages in memory until a worker takes them (docs/design.md §8).
        return
    from memory_service import broker

    try:
        if erased_user is not None:
            broker.drop_user_messages(url, erased_user)
        else:
            broker.checkpoint(url)
    except Exception:
        # The erase or forget has committed; the broker's copy goes at its next checkpoint.
        logger.exception("Could not scrub the embedded broker after an erasure; it completes later.")
