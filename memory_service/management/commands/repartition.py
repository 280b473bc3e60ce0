"""manage.py repartition --partitions N: give a live PostgreSQL store's user-data tables another
number of hash partitions by user (docs/deployment.md, "What erased means on PostgreSQL").

Why: the compaction pass's lock hold is about a slice's size (table size / partitions), and
MEMORY_POSTGRES_PARTITIONS is read only when the partition migrations run, so a store that
grows needs its count raised in place. Both families are rebuilt, in one transaction: the
recall index (recall/engines/postgresql/ddl.py) and the Django-model tables that hold a
person's words (core/db/partitioned_tables.py). A failure anywhere changes nothing.
Django's migration state is not touched (its models are the same at any count).
"""

from __future__ import annotations

import math
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError, connection, transaction

from core import engine
from core.db import partitioned_tables
from recall.engines.postgresql import ddl
from recall.engines.postgresql.compactor import PASS_LOCK_KEY

MB = 2**20
# Above this many bytes of rows the rebuild keeps requests waiting long enough to ask first.
ASK_ABOVE_BYTES = 5 * MB
# The rebuild's time per GB of tables, 64 -> 128 partitions on the loaded 2-core machine of
# docs/measurements.md §17 (about 118 s for 393 MB; 128 -> 64: 67 s for 442 MB), to estimate
# how long requests wait; the real time depends on the disk, the load and the counts.
SECONDS_PER_GB = 300
# The part of the server's lock table the rebuild may take (the rest is the other sessions').
LOCK_SHARE = 0.9


class Command(BaseCommand):
    help = (
        "PostgreSQL: rebuild every user-data table hash-partitioned by user (the recall index and the tables "
        "of turns, facts, history, entities, edges and profiles) with --partitions slices, keeping every row, "
        "id sequence, index, constraint and foreign key, in one transaction. Requests that touch these tables "
        "wait until it commits; above a few MB it asks for --yes."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--partitions", type=int, required=True, help="the new count, 1-1024")
        parser.add_argument("--yes", action="store_true", help="rebuild even though requests wait meanwhile")
        parser.add_argument(
            "--lock-wait-seconds",
            type=float,
            default=10.0,
            help="how long to wait for the tables' locks (a long transaction holding one) before giving up",
        )

    def handle(self, *args: Any, partitions: int, yes: bool, lock_wait_seconds: float, **options: Any) -> None:
        if not engine.current().partitioned_by_user:
            raise CommandError(
                "SQLite has no partitions: its tables are whole, and a forget zeroes the freed pages at once "
                "(secure_delete), so there is no rewrite to bound. repartition is for a PostgreSQL store."
            )
        if not 1 <= partitions <= 1024:
            raise CommandError(f"--partitions {partitions}: use 1 to 1024.")
        families = {
            "recall index": ddl.index_tables(connection),
            "model tables": _present(partitioned_tables.MODEL_TABLES),
        }
        tables = [table for family in families.values() for table in family]
        if not tables:
            raise CommandError("The store has no user-data tables: run `manage.py migrate` first.")
        with connection.cursor() as cursor:
            counts = {p.table: p.partitions for p in partitioned_tables.layout(cursor)}
            sizes = partitioned_tables.table_sizes(cursor, tables)
        if all(counts.get(table) == partitions for table in tables):
            self.stdout.write(f"Every user-data table already has {partitions} partitions; nothing to do.")
            return self._remind(partitions)
        rows = self._announce(tables, counts, sizes, partitions)
        self._check_lock_slots(tables, partitions)
        if rows > ASK_ABOVE_BYTES and not yes:
            raise CommandError(
                f"The store holds {rows / MB:.0f} MB of rows and requests would wait while they are copied: "
                "run it again with --yes when they may (nothing was changed)."
            )
        started = time.perf_counter()
        self._rebuild(families, sizes, partitions, lock_wait_seconds)
        self.stdout.write(
            f"Rebuilt {len(tables)} tables with {partitions} partitions in {time.perf_counter() - started:.1f} s."
        )
        self._analyze(tables)
        self._remind(partitions)

    def _announce(self, tables: list[str], counts: dict[str, int], sizes: dict[str, tuple[int, int]], n: int) -> int:
        total = sum(size for size, _ in sizes.values())
        rows = sum(row_bytes for _, row_bytes in sizes.values())
        for table in tables:
            size, _ = sizes[table]
            self.stdout.write(f"  {table:<28} {counts.get(table, 0):>5} -> {n:<5} partitions  {size / MB:10.1f} MB")
        self.stderr.write(
            self.style.WARNING(
                f"Every request that reads or writes these tables waits until the rebuild commits: about "
                f"{max(1.0, total / 2**30 * SECONDS_PER_GB):.0f} s for {total / MB:.0f} MB (measured "
                f"up to {SECONDS_PER_GB} s per GB on 2 loaded cores; docs/measurements.md §17), and it needs about "
                f"{total / MB:.0f} MB of free disk until then."
            )
        )
        return rows

    def _check_lock_slots(self, tables: list[str], n: int) -> None:
        """One transaction locks every old and new relation until it commits: thousands at
        64-128 partitions, more than a default server's lock table holds ("out of shared
        memory" half-way). Refuse up front, naming the setting, instead."""
        with connection.cursor() as cursor:
            needed, slots, connections = partitioned_tables.locks_needed(cursor, tables, n)
        # The table is shared with every other session: leave them a tenth of it.
        if needed <= slots * LOCK_SHARE:
            return
        setting = math.ceil(needed / LOCK_SHARE / connections)
        raise CommandError(
            f"The rebuild holds about {needed:,} locks in one transaction, more than this server's lock table "
            f"leaves it ({slots:,} slots: max_locks_per_transaction x (max_connections + "
            f"max_prepared_transactions)). Set max_locks_per_transaction to {setting} or more in postgresql.conf "
            "(a server restart) and run it again; nothing was changed."
        )

    def _rebuild(self, families: dict[str, list[str]], sizes: dict[str, tuple[int, int]], n: int, wait: float) -> None:
        last, done = [time.perf_counter()], []

        def progress(table: str) -> None:
            now = time.perf_counter()
            self.stdout.write(f"  rebuilt {table} ({sizes[table][0] / MB:.1f} MB) in {now - last[0]:.1f} s")
            last[0] = now
            done.append(table)

        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL statement_timeout = 0")
                    cursor.execute(f"SET LOCAL lock_timeout = '{int(wait * 1000)}ms'")
                    # No compaction pass meanwhile: it names the partitions that exist when it plans.
                    cursor.execute("SELECT pg_advisory_xact_lock(%s)", [PASS_LOCK_KEY])
                    # Every lock the rebuild takes, at once, before anything changes: requests
                    # queue here, not half-way through (where waiting on a request that waits on
                    # a rebuilt table would be a deadlock), and a lock that cannot be had
                    # changes nothing.
                    rebuilt = [t for f in families.values() for t in f]
                    incoming, outgoing = partitioned_tables.neighbours(cursor, rebuilt)
                    cursor.execute(f"LOCK TABLE {', '.join(rebuilt + incoming)} IN ACCESS EXCLUSIVE MODE")
                    if outgoing:
                        cursor.execute(f"LOCK TABLE {', '.join(outgoing)} IN SHARE ROW EXCLUSIVE MODE")
                    cursor.execute("SET LOCAL lock_timeout = 0")
                ddl.convert(connection, n, progress)
                partitioned_tables.convert(connection, families["model tables"], n, progress)
        except DatabaseError as exc:
            where = f"after {len(done)} of the tables ({', '.join(done)})" if done else "before any table was rebuilt"
            raise CommandError(
                f"The repartition failed {where} and was rolled back: nothing was changed. {exc}"
            ) from exc

    def _analyze(self, tables: list[str]) -> None:
        """Column statistics for the new tables (a partitioned table's own are never made by
        autovacuum); ANALYZE blocks no request."""
        started = time.perf_counter()
        with connection.cursor() as cursor:
            for table in tables:
                cursor.execute(f"ANALYZE {table}")
        self.stdout.write(f"Analyzed them in {time.perf_counter() - started:.1f} s.")

    def _remind(self, n: int) -> None:
        setting = settings.MEMORY_POSTGRES_PARTITIONS
        if n != setting:
            self.stderr.write(
                self.style.WARNING(
                    f"Set MEMORY_POSTGRES_PARTITIONS={n} in the environment (it is {setting}): "
                    "a table a later migration makes takes the setting's count, and `manage.py check` warns until "
                    "they agree."
                )
            )


def _present(tables: list[str]) -> list[str]:
    known = set(connection.introspection.table_names())
    return [table for table in tables if table in known]
