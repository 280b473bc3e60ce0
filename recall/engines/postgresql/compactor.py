"""PostgreSQL: remove erased rows' bytes from the table files in the background, in batches.

Why not at the request: a DELETE leaves the old row versions in the table and index pages;
a plain VACUUM prunes them but does not zero the space they took (their bytes stay until an
insert happens to reuse it), so only a rewrite removes them (VACUUM FULL, tested with
pgserver 16: docs/deployment.md, "What erased means on PostgreSQL"). A rewrite holds an
ACCESS EXCLUSIVE lock on the table for as long as it copies it, blocking every tenant's
reads of it: once per forget, that stalled every request of the service (issue 33).

So a forget or erase only leaves a PendingCompaction row (naming the user) in its own
transaction (facts/scrub.py, recall/engines/postgresql/scrub.py), and one pass every MEMORY_POSTGRES_COMPACT_SECONDS
(Celery beat, `compact-erasures`) rewrites, once for every erasure committed before the pass
began, only the erased users' slices of the tables that hold a person's words: the recall
index tables (recall/engines/postgresql/ddl.py) and the Django-model tables of turns, facts,
their history, entities, edges and profile versions (core/db/partitioned_tables.py)
are `PARTITION BY HASH (user_id)`, and of each the pass rewrites the partitions the erased
users' rows were in. The few small tables that hold a person's id or words and cannot be
partitioned by user (facts_memoryuser, facts_sessioncursor, facts_appliedchange, the
importer's and webhook deliveries') are rewritten whole; those that never hold a person's
words (NOT_REWRITTEN) are not rewritten. Last it rewrites pg_statistic, whose dead rows keep
the values its ANALYZEs replaced. It stamps the receipts' `bytes_gone_at` only when
every relation it had to rewrite was rewritten; a user whose relations were all rewritten
leaves the queue, the others wait for the next pass.

Locks: each relation is rewritten on its own and waits at most MEMORY_POSTGRES_COMPACT_LOCK_WAIT_MS
for its lock (lock_timeout). A waiting ACCESS EXCLUSIVE request queues every later reader
behind it, so a pass that cannot have the lock at once steps back and tries again instead
of stalling requests. Once it holds the lock, requests touching that partition wait for its
rewrite: about table size / MEMORY_POSTGRES_PARTITIONS (docs/measurements.md §17). A request
of another user reads its own partitions, which are not locked; one that reads every
partition (a lookup by id without the user) waits for one partition at most. The bound grows
with the store: a slice is table / partitions, and at the 50-70 MB/s measured a rewrite
passes 100 ms above about 5 MB a slice (64 partitions of a 320 MB table: the largest of a
1 GB store), so the operator raises MEMORY_POSTGRES_PARTITIONS as the store grows
(docs/deployment.md, "What erased means on PostgreSQL"). Only per-user keys (crypto-shredding,
not built) would make the hold independent of the store's size.

"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.db import OperationalError, connection
from django.db.backends.utils import CursorWrapper
from django.utils import timezone

from core.engine import PassReport

logger = logging.getLogger(__name__)

# pg_try_advisory_lock key: one pass at a time across every worker of the cluster.
PASS_LOCK_KEY = 0x6D656D5F636F6D70  # "mem_comp"
LOCK_RETRIES = 5
STATISTICS = "pg_statistic"
RETRY_PAUSE_SECONDS = 1.0
# Tables of the user-data apps that never hold a person's words, so the pass leaves them
# alone: a rewrite of one would hold every request that reads or writes it (each recall
# reads recall_embedderswitch, each request facts_apikey) for nothing (docs/deployment.md,
# "What erased means on PostgreSQL", lists every table and why).
NOT_REWRITTEN = {
    "facts_pendingcompaction",  # the queue itself: every forget writes it
    "facts_tenant",  # the tenant's name, not a person's
    "facts_apikey",  # key hashes; read by every request
    "facts_deletionreceipt",  # a hashed id and counts; the pass stamps it
    "facts_retentionrun",  # counts
    "facts_memorymodechange",  # modes and who set them
    "facts_factentity",  # two ids
    "profiles_contextlog",  # counts, no user
    "recall_recalllog",  # counts, no user
    "recall_evalrun",  # scores of an evaluation corpus
    "recall_embedderreport",  # worker status
    "recall_embedderswitch",  # the live model; read by every recall
    "recall_pendingindex",  # ids; written by every write
    "webhooks_webhookendpoint",  # the tenant's URLs
}


def due() -> bool:
    from facts.models import DeletionReceipt, PendingCompaction

    return PendingCompaction.objects.exists() or DeletionReceipt.objects.filter(bytes_gone_at__isnull=True).exists()


def compact_pass(*, force: bool = False) -> PassReport | None:
    """One pass over the user-data tables, if an erasure is waiting (or `force`).
    None with MEMORY_POSTGRES_ERASE_VACUUM=off, or while another pass runs."""
    if settings.MEMORY_POSTGRES_ERASE_VACUUM == "off":
        return None
    if connection.in_atomic_block:
        raise RuntimeError("A compaction pass runs VACUUM, which cannot run inside a transaction.")
    if not force and not due():
        return None
    if not _try_pass_lock():
        return None
    try:
        return _run_pass()
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [PASS_LOCK_KEY])


def _run_pass() -> PassReport:
    from facts.models import DeletionReceipt, PendingCompaction

    # What this pass covers: erasures committed before it starts (their rows are visible now).
    pending = list(PendingCompaction.objects.values_list("pk", "user_pk"))
    receipts = list(DeletionReceipt.objects.filter(bytes_gone_at__isnull=True).values_list("pk", flat=True))
    report = PassReport(started_at=timezone.now())
    horizon = _next_xid()
    full = settings.MEMORY_POSTGRES_ERASE_VACUUM == "full"
    # A row without a user (or a receipt without a row) may have left rows in any partition.
    named = {user for _, user in pending if user is not None}
    users = named if pending and len(named) == len({user for _, user in pending}) else None
    plan = relations_to_rewrite(users)
    for relation in plan:
        seconds = _rewrite(relation.name, horizon=horizon, full=full)
        if seconds is None:
            report.left_for_next_pass.append(relation.name)
        else:
            report.held_seconds[relation.name] = seconds
    _analyze_parents(plan, report)
    _rewrite_statistics(horizon, full, report)
    report.finished_at = timezone.now()
    _clear_done(pending, plan, report)
    if not report.complete:
        logger.warning("Compaction pass left %s for the next pass.", ", ".join(report.left_for_next_pass))
        return report
    if full:
        # plain marks space reusable only: the bytes are still there, so no receipt says they went.
        report.receipts_stamped = DeletionReceipt.objects.filter(pk__in=receipts).update(
            bytes_gone_at=report.finished_at
        )
    # The longest hold is what a reader of that table waited once (docs/deployment.md).
    longest = max(report.held_seconds.items(), key=lambda item: item[1], default=("-", 0.0))
    logger.info(
        "Compaction pass: %d tables in %.1f s, longest hold %.2f s (%s), %d receipts stamped.",
        len(report.held_seconds),
        (report.finished_at - report.started_at).total_seconds(),
        longest[1],
        longest[0],
        report.receipts_stamped,
    )
    return report


def _clear_done(pending: list[tuple[int, int | None]], plan: list[Relation], report: PassReport) -> None:
    """Take out of the queue the erasures whose every relation this pass rewrote."""
    from facts.models import PendingCompaction

    left = set(report.left_for_next_pass)
    if not left:
        PendingCompaction.objects.filter(pk__in=[pk for pk, _ in pending]).delete()
        return
    if any(relation.users is None and relation.name in left for relation in plan):
        return  # a whole table is left: every erasure still has rows in it
    waiting = {user for relation in plan if relation.name in left for user in relation.users or ()}
    done = [pk for pk, user in pending if user is not None and user not in waiting]
    PendingCompaction.objects.filter(pk__in=done).delete()


def _analyze_parents(plan: list[Relation], report: PassReport) -> None:
    """A partitioned table's own column statistics sample every partition's values (an
    ANALYZE of the whole database makes them): sample them again once its slices are rewritten.
    ANALYZE's lock blocks no request."""
    for parent in sorted({r.parent for r in plan if r.parent and r.name in report.held_seconds}):
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(parent)}")


def _rewrite_statistics(horizon: int, full: bool, report: PassReport) -> None:
    """The ANALYZEs above replace the column statistics that sampled erased values (a
    partitioned table's own statistics sample every partition), but the replaced rows stay as
    dead tuples in pg_statistic's file: rewrite it too (a few MB at most, so a hold of
    milliseconds; found by bench_erasure on a small store). Only its database's owner may."""
    if not full or not report.held_seconds:
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_has_role(current_user, datdba, 'MEMBER') FROM pg_database WHERE datname = current_database()"
        )
        owner = bool(cursor.fetchone()[0])
    if not owner:
        logger.error("Only the database's owner can rewrite pg_statistic: the receipts stay unstamped.")
        report.left_for_next_pass.append(STATISTICS)
        return
    seconds = _rewrite(STATISTICS, horizon=horizon, full=True)
    if seconds is None:
        report.left_for_next_pass.append(STATISTICS)
    else:
        report.held_seconds[STATISTICS] = seconds


def _rewrite(table: str, *, horizon: int, full: bool) -> float | None:
    """Rewrite one table (FULL) or prune it (plain); seconds under the lock, None if it could
    not be done now (lock busy, or an older snapshot open)."""
    quoted = connection.ops.quote_name(table)
    wait_ms = settings.MEMORY_POSTGRES_COMPACT_LOCK_WAIT_MS
    for attempt in range(LOCK_RETRIES):
        if attempt:
            time.sleep(RETRY_PAUSE_SECONDS)
        if not _no_snapshot_older_than(horizon):
            continue
        try:
            with connection.cursor() as cursor:
                cursor.execute(f"SET lock_timeout = '{int(wait_ms)}ms'")
                started = time.perf_counter()
                cursor.execute(f"VACUUM {'(FULL) ' if full else ''}{quoted}")
                held = time.perf_counter() - started
                cursor.execute("RESET lock_timeout")
                # Column statistics (pg_statistic) keep sampled values; ANALYZE's lock blocks no request.
                cursor.execute(f"ANALYZE {quoted}")
            return held
        except OperationalError as exc:
            if getattr(exc.__cause__, "sqlstate", None) != "55P03":  # lock_not_available
                raise
            with connection.cursor() as cursor:
                cursor.execute("RESET lock_timeout")
    return None


def _try_pass_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [PASS_LOCK_KEY])
        return bool(cursor.fetchone()[0])


def _next_xid() -> int:
    """The first transaction id not yet started when the pass begins (32-bit, as pg_stat_activity shows)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_snapshot_xmax(pg_current_snapshot())::text")
        return int(cursor.fetchone()[0]) % 2**32


def _no_snapshot_older_than(xid: int) -> bool:
    """True when no other session of this database runs a transaction or holds a snapshot that
    began before `xid` (lazy VACUUM's own snapshot does not hold back what a rewrite removes)."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT count(*) FROM pg_stat_activity
            WHERE pid <> pg_backend_pid() AND datname = current_database()
              AND backend_type <> 'autovacuum worker'
              AND (age(backend_xmin) > age(%s::text::xid) OR age(backend_xid) > age(%s::text::xid))
            """,
            [str(xid), str(xid)],
        )
        return bool(cursor.fetchone()[0] == 0)


@dataclass(frozen=True)
class Relation:
    """A table or one partition of a partitioned table that a pass rewrites."""

    name: str
    parent: str | None = None  # the partitioned table this is a partition of
    users: frozenset[int] | None = None  # whose erased rows it may hold; None: anyone's


PARTITIONS_OF = r"""
SELECT c.relname,
       (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'modulus (\d+), remainder (\d+)'))[1]::int,
       (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'modulus (\d+), remainder (\d+)'))[2]::int
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = %s::regclass
"""


def relations_to_rewrite(users: set[int] | None) -> list[Relation]:
    """Every whole user-data table, and of the partitioned ones the partitions that hold (or
    held) the rows of `users` (every partition with None), smallest first."""
    from facts.scrub import user_data_tables

    tables = sorted((set(connection.introspection.table_names()) & user_data_tables()) - NOT_REWRITTEN)
    relations: list[Relation] = []
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(PARTITIONS_OF, [table])
            partitions = cursor.fetchall()
            if not partitions:
                relations.append(Relation(table))
                continue
            for name, modulus, remainder in partitions:
                held = _users_in(cursor, table, modulus, remainder, users)
                if held is None or held:
                    relations.append(Relation(name, parent=table, users=held))
        cursor.execute(
            "SELECT name FROM unnest(%s::text[]) AS name ORDER BY pg_total_relation_size(to_regclass(name)), name",
            [[r.name for r in relations]],
        )
        order = {row[0]: i for i, row in enumerate(cursor.fetchall())}
    return sorted(relations, key=lambda r: order[r.name])


def _users_in(
    cursor: CursorWrapper, table: str, modulus: int, remainder: int, users: set[int] | None
) -> frozenset[int] | None:
    """Which of `users` hash into this partition (PostgreSQL's own hash of the bigint key)."""
    if users is None:
        return None
    cursor.execute(
        "SELECT id FROM unnest(%s::bigint[]) AS u(id) WHERE satisfies_hash_partition(%s::regclass, %s, %s, u.id)",
        [sorted(users), table, modulus, remainder],
    )
    return frozenset(row[0] for row in cursor.fetchall())
