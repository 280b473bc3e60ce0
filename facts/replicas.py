"""Reads from PostgreSQL streaming replicas (`DATABASE_REPLICA_URLS`), and reading one's own writes.

Recall, the context block and the fact list and get routes run their statements on a replica:
inside `reading_for(user)` the router sends every ORM read to the replica's alias, and the recall
engines' raw SQL takes its connection from `reader()`. Writes always go to the primary.

Read your own writes, by WAL position: after a transaction that wrote a user's data commits, one
UPDATE records the primary's WAL position in the user's row (`MemoryUser.written_lsn`; after the
commit, since a position taken inside the transaction would precede its commit record). A read
loads the user from the primary, as every route already does, and uses a replica only if that
replica has replayed WAL up to the recorded position (`pg_last_wal_replay_lsn()`); else the
primary answers. Each process remembers how far each replica had replayed (it only grows), so a
user who wrote nothing lately costs no extra statement, and one who just wrote costs one (the
replica's position, asked again) and reads from the primary until the replica has caught up.
Chosen over a pin for some seconds after a write: a pin shorter than the lag misses, one longer
sends every active user to the primary; the position is exact whatever the lag.

Without replicas (the default) nothing here runs a statement: reads stay on the primary.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper

from core.errors import NotFound

log = logging.getLogger(__name__)
T = TypeVar("T")

# The alias this thread's reads go to while a read runs (None: Django's default rules).
_reading: ContextVar[str | None] = ContextVar("memory_replica_reading", default=None)
_round_robin = itertools.count()
# alias -> the replay position (bytes of WAL) last seen there.
_replayed: dict[str, int] = {}
# alias -> until when (time.monotonic()) it is left out after a failed connection.
_down_until: dict[str, float] = {}
DOWN_SECONDS = 5.0
# Where reads were served since the process started: "replica", "primary_lagging" (the replica
# had not replayed the user's last write), "primary_down" (no replica reachable), "primary"
# (no replica configured).
served: Counter[str] = Counter()
_written = threading.local()


def aliases() -> list[str]:
    return list(getattr(settings, "MEMORY_DATABASE_REPLICAS", []))


def reader() -> BaseDatabaseWrapper:
    """The connection this thread reads from now: a replica inside a routed read, else the primary."""
    return connections[_reading.get() or DEFAULT_DB_ALIAS]


class ReplicaRouter:
    """Reads inside `reading_for` go to its replica; writes and migrations to the primary."""

    def db_for_read(self, model: Any, **hints: Any) -> str | None:
        return _reading.get()

    def db_for_write(self, model: Any, **hints: Any) -> str | None:
        instance = hints.get("instance")
        if instance is not None and instance._state.db in aliases():
            return DEFAULT_DB_ALIAS  # an object read from a replica is saved on the primary
        return None

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool | None:
        ours = {DEFAULT_DB_ALIAS, *aliases()}
        return True if obj1._state.db in ours and obj2._state.db in ours else None

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool | None:
        return False if db in aliases() else None


# --- writes: recording the position -------------------------------------------------------------


def note_write(user_ids: Any) -> None:
    """Inside (or outside) a transaction that writes these users' data: record the primary's WAL
    position for them once it commits. Nothing without replicas."""
    if not aliases():
        return
    ids = {int(i) for i in user_ids if i is not None}
    if not ids:
        return
    pending = getattr(_written, "ids", None)
    if pending is None:
        pending = _written.ids = set()
    pending.update(ids)
    # One callback per call (a rolled-back transaction drops its own); the first to run after a
    # commit records everything this thread noted.
    transaction.on_commit(_record)


def _record() -> None:
    ids, _written.ids = getattr(_written, "ids", None) or set(), None
    if not ids:
        return
    from facts.models import MemoryUser

    try:
        # One user a statement, outside any transaction: each holds one row lock at a time, so it
        # cannot close a circle with a writer holding a user's row or with another thread's record.
        # One UPDATE of several users took their rows in the order it met them, which two such
        # UPDATEs and a writer's lock_user turned into deadlocks (docs/measurements.md §20).
        for user_id in sorted(ids):
            MemoryUser.objects.using(DEFAULT_DB_ALIAS).filter(pk=user_id).update(written_lsn=written_position())
    except DatabaseError:
        # The write has committed; without its position this user's next reads may go to a
        # replica that lacks it until the next write records one. Logged, never raised.
        log.exception("could not record the WAL position of %d users' write", len(ids))


def written_position() -> Any:
    """The primary's WAL insert position after the commit, in bytes (an SQL expression).

    The insert position, not `pg_current_wal_lsn()`: that one is how far WAL has been written out
    to the kernel, which is past the commit record only when the commit waited for its flush. A
    primary with `synchronous_commit = off` answers the commit first, so the write position
    could still lie before the commit record, and a replica that had not replayed the write was
    taken for caught up (2 misses in 60 probes, tests/recall/test_replica_reads_postgresql.py,
    whose server runs that way)."""
    from django.db.models.expressions import RawSQL

    return RawSQL("(pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint", [])


# --- reads: choosing where -----------------------------------------------------------------------


def _replica_position(alias: str) -> int | None:
    """How far this replica has replayed (None: not a replica, e.g. a promoted one)."""
    with connections[alias].cursor() as cursor:
        cursor.execute("SELECT (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint")
        value = cursor.fetchone()[0]
    if value is not None:
        _replayed[alias] = max(_replayed.get(alias, 0), int(value))
    return None if value is None else int(value)


def _has_replayed(alias: str, written: int | None) -> bool:
    if written is None:
        return True
    if _replayed.get(alias, -1) >= written:
        return True
    position = _replica_position(alias)
    return position is not None and position >= written


def _next_replica() -> str | None:
    """A reachable replica, in turn; None when none is configured or none answers."""
    names = aliases()
    now = time.monotonic()
    for _ in range(len(names)):
        alias = names[next(_round_robin) % len(names)]
        if _down_until.get(alias, 0) > now:
            continue
        try:
            connections[alias].ensure_connection()
            return alias
        except DatabaseError:
            log.warning("replica %s unreachable; reads go elsewhere for %.0f s", alias, DOWN_SECONDS)
            connections[alias].close()
            _down_until[alias] = now + DOWN_SECONDS
    return None


def _choose(written: Callable[[], int | None]) -> str | None:
    """The replica to read from, or None for the primary; counts the choice."""
    if not aliases():
        served["primary"] += 1
        return None
    alias = _next_replica()
    if alias is None:
        served["primary_down"] += 1
        return None
    try:
        fresh = _has_replayed(alias, written())
    except DatabaseError:
        connections[alias].close()
        _down_until[alias] = time.monotonic() + DOWN_SECONDS
        served["primary_down"] += 1
        return None
    served["replica" if fresh else "primary_lagging"] += 1
    return alias if fresh else None


@contextmanager
def _on(alias: str | None) -> Iterator[None]:
    token = _reading.set(alias)
    try:
        yield
    finally:
        _reading.reset(token)


@contextmanager
def reading_for(user: Any) -> Iterator[str | None]:
    """Run the block's reads on a replica that has every write of `user` (loaded from the
    primary, with its `written_lsn`), or on the primary. Yields the alias (None: primary)."""
    alias = _choose(lambda: user.written_lsn)
    with _on(alias):
        yield alias


def read_checked(load: Callable[[], T], user_id_of: Callable[[T], int]) -> T:
    """`load()` on a replica, kept when that replica had replayed its owner's last write; else
    (or when the replica has no such row yet) `load()` again on the primary. For reads whose user
    is known only from the row (a fact by its id)."""
    if not aliases():
        served["primary"] += 1
        return load()
    alias = _next_replica()
    if alias is None:
        served["primary_down"] += 1
        return load()
    try:
        with _on(alias):
            found: T | None = load()
    except NotFound:
        found = None
    if found is not None and _has_replayed(alias, _written_lsn(user_id_of(found))):
        served["replica"] += 1
        return found
    served["primary_lagging"] += 1
    return load()


def _written_lsn(user_id: int) -> int | None:
    from facts.models import MemoryUser

    row = MemoryUser.objects.using(DEFAULT_DB_ALIAS).filter(pk=user_id).values_list("written_lsn", flat=True)
    return next(iter(row), None)


def replica_share() -> float:
    """The share of routed reads a replica served since start (0.0 when none was routed)."""
    total = sum(served.values())
    return served["replica"] / total if total else 0.0
