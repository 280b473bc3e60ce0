"""PostgreSQL's system checks (run through recall/checks.py): the pgvector extension, client
programs that can back up the server, the connection budget without a pooler, the hash
partitions by user, and an erasure journal every host reaches."""

from __future__ import annotations

import math

import psycopg
from django.conf import settings
from django.core.checks import CheckMessage, Error, Warning
from django.db import connection

from core import engine
from core.db import partitioned_tables, pg_tools
from recall.engines.postgresql.journal import URL_SCHEMES


def startup_checks() -> list[CheckMessage]:
    return [
        *journal_warnings(str(settings.MEMORY_ERASURE_JOURNAL)),
        *client_program_warnings(),
        *connection_budget(),
        *partition_warnings(),
    ]


def database_checks() -> list[CheckMessage]:
    """Needs the server: `manage.py check --database default`, migrate and the test run."""
    try:
        # Available on the server is enough before migrate: recall 0008 creates the extension.
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")
            found = cursor.fetchone()
    except Exception as exc:
        return [Error(f"Could not open the database: {exc}", id="recall.E000")]
    if found is None:
        return [
            Error(
                "The PostgreSQL server has no pgvector extension; the recall index needs it.",
                hint="Install pgvector on the database server (the package for its PostgreSQL version); "
                'see docs/deployment.md, "Many hosts".',
                id="recall.E003",
            )
        ]
    return []


def journal_warnings(journal: str) -> list[CheckMessage]:
    # The store serves many hosts; a journal file on one of them misses the erasures made on
    # the others, and a restore would bring those people back.
    if journal.startswith(URL_SCHEMES):
        return []
    if "://" in journal and not journal.startswith(engine.journal_schemes()):
        return []  # a scheme the journal cannot open: core/checks.py refuses it (E002)
    return [
        Warning(
            f"The erasure journal is a file on this host ({journal}) while the store is on PostgreSQL.",
            hint="With more than one web or worker host, set MEMORY_ERASURE_JOURNAL to a postgresql:// URL of a "
            "database of its own (docs/deployment.md, 'Backups and restore'); with one host this is fine: "
            "SILENCED_SYSTEM_CHECKS=memory_service.W001 stops this warning.",
            id="memory_service.W001",
        )
    ]


def client_program_warnings() -> list[CheckMessage]:
    # Two `--version` runs and the server's version, on a connection of the check's own
    # (docs/deployment.md, "Backups and restore").
    try:
        version = pg_tools.server_version_num()
    except psycopg.Error:
        return []  # an unreachable server is not this check's to report
    return pg_client_warnings(pg_tools.problems(pg_tools.server_major(version)))


def pg_client_warnings(problems: list[str]) -> list[CheckMessage]:
    return [
        Warning(
            problem,
            hint="Install PostgreSQL's client programs of the server's major version or newer and point "
            "MEMORY_PG_DUMP / MEMORY_PG_RESTORE at them (e.g. /usr/lib/postgresql/16/bin/pg_dump); on hosts "
            "that never back up or restore, SILENCED_SYSTEM_CHECKS=memory_service.W002 stops this warning.",
            id="memory_service.W002",
        )
        for problem in problems
    ]


def connection_budget() -> list[CheckMessage]:
    # Without a pooler every web thread keeps its connection (DATABASE_CONN_MAX_AGE), so the
    # deployment's threads and Celery's connections must fit the server's slots.
    if settings.DATABASE_POOLER != "none":
        return []
    try:
        slots = pg_tools.connection_slots()
    except psycopg.Error:
        return []  # an unreachable server is not this check's to report
    web = settings.DATABASE_WEB_HOSTS, settings.WEB_SERVER["workers"], settings.WEB_SERVER["threads"]
    return connection_budget_warnings(web, settings.DATABASE_WORKER_CONNECTIONS, slots)


def connection_budget_warnings(web: tuple[int, int, int], celery: int, slots: int) -> list[CheckMessage]:
    """`web` is (hosts, processes per host, threads per process)."""
    hosts, workers, threads = web
    demand = hosts * workers * threads + celery
    if demand <= slots:
        return []
    return [
        Warning(
            f"Up to {demand} connections to PostgreSQL can be open at once ({hosts} web host(s) x {workers} "
            f"processes x {threads} threads, + {celery} for Celery), more than the {slots} the server accepts "
            "(max_connections less the reserved ones): requests would fail with 'too many clients'.",
            hint="Raise max_connections, lower WEB_WORKERS or WEB_THREADS, or put PgBouncer in transaction mode "
            "in front and set DATABASE_POOLER=pgbouncer (docs/deployment.md, 'Connections'). DATABASE_WEB_HOSTS "
            "and DATABASE_WORKER_CONNECTIONS say how many web hosts and Celery connections share the server.",
            id="memory_service.W003",
        )
    ]


def partition_warnings() -> list[CheckMessage]:
    # One catalog query (and a stat of each partition's files, no row read) on a connection
    # of the check's own (docs/deployment.md, "What erased means on PostgreSQL").
    try:
        tables = partitioned_tables.store_layout()
    except psycopg.Error:
        return []  # an unreachable server is not this check's to report
    setting, warn_mb = settings.MEMORY_POSTGRES_PARTITIONS, settings.MEMORY_POSTGRES_PARTITION_WARN_MB
    return partition_count_warnings(tables, setting) + partition_size_warnings(tables, warn_mb)


def partition_count_warnings(tables: list[partitioned_tables.Partitioned], setting: int) -> list[CheckMessage]:
    """MEMORY_POSTGRES_PARTITIONS is read only when the partition migrations make the tables."""
    other = {t.table: t.partitions for t in tables if t.partitions != setting}
    if not other:
        return []
    found = ", ".join(f"{table} {count}" for table, count in sorted(other.items()))
    return [
        Warning(
            f"MEMORY_POSTGRES_PARTITIONS is {setting}, but the store's tables have another count of hash "
            f"partitions ({found}): the setting is read only when the migrations make the tables.",
            hint=f"Run `manage.py repartition --partitions {setting}` to give the store the setting's count (requests "
            "wait while it runs), or set MEMORY_POSTGRES_PARTITIONS to the store's count "
            "(docs/deployment.md, 'What erased means on PostgreSQL').",
            id="memory_service.W004",
        )
    ]


def partition_size_warnings(tables: list[partitioned_tables.Partitioned], warn_mb: float) -> list[CheckMessage]:
    """A compaction rewrite holds its slice for about size / rate: above `warn_mb` (about 100 ms
    at the 50-70 MB/s measured) another tenant sharing the slice waits longer."""
    limit = warn_mb * 2**20
    over = [t for t in tables if t.largest_bytes > limit]
    if not over:
        return []
    worst = max(over, key=lambda t: t.largest_bytes)
    # Slices shrink about in proportion to the count; a power of two, within the setting's bounds.
    needed = max(math.ceil(t.partitions * t.largest_bytes / limit) for t in over)
    count = min(1024, 2 ** math.ceil(math.log2(needed)))
    reach = (
        f"about {count} partitions would bring every slice under it"
        if count >= needed
        else "even 1,024 partitions would not bring every slice under it (per-user keys would; not built)"
    )
    return [
        Warning(
            f"The largest partition, {worst.largest} ({worst.largest_bytes / 2**20:.1f} MB of {worst.table}'s "
            f"{worst.partitions}), is above MEMORY_POSTGRES_PARTITION_WARN_MB={warn_mb:g}: a compaction pass rewriting "
            f"it holds requests of the users in it for longer than about 100 ms; {reach}.",
            hint=f"Set MEMORY_POSTGRES_PARTITIONS={count} and run `manage.py repartition --partitions {count}` "
            "(requests wait while it runs; docs/deployment.md, 'What erased means on PostgreSQL'). A single user "
            "larger than the limit stays above it at any count.",
            id="memory_service.W005",
        )
    ]
