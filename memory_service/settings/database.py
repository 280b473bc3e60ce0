"""Settings: the database (SQLite embedded, or PostgreSQL), its replicas, backups, erasure journal."""

from __future__ import annotations

import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from core.db.postgresql_urls import with_socket_host
from memory_service.settings.base import VAR_DIR, env

# --- Database -----------------------------------------------------------------
# The embedded default is a SQLite file; postgresql://user:password@host:port/name (psycopg 3,
# PostgreSQL with pgvector) serves many hosts (docs/deployment.md, "Many hosts").
DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'memory.sqlite3'}"),
}
_ENGINES = {"django.db.backends.sqlite3": "sqlite", "django.db.backends.postgresql": "postgresql"}
# An unreadable URL gives no ENGINE at all. Refused here, not by a check: no default
# database is a safe stand-in for the one the operator meant.
DATABASE_ENGINE = _ENGINES.get(DATABASES["default"].get("ENGINE", ""), "")
if not DATABASE_ENGINE:
    raise ImproperlyConfigured(
        "DATABASE_URL must be sqlite:///path/to/file.sqlite3 or postgresql://user:password@host:port/name."
    )
# Keep each server thread's connection open across requests: opening and
# closing a WAL connection per request costs a file open, the sqlite-vec load
# and the PRAGMAs every time, and is the pattern that deadlocked SQLite
# 3.51.0-3.51.1 (core/sqlite_driver.py); a PostgreSQL connection costs
# a login. 0 closes after every request.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=600, minimum=0)
# A PostgreSQL server can restart or drop an idle connection; SQLite's check costs nothing.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
_busy_timeout = env.float("SQLITE_BUSY_TIMEOUT_SECONDS", default=30.0, minimum=0)
if DATABASE_ENGINE == "sqlite":
    DATABASES["default"]["ENGINE"] = "core.db"
    DATABASES["default"]["OPTIONS"] = {
        "timeout": _busy_timeout,
        # BEGIN IMMEDIATE takes the write lock up front, so concurrent writers wait
        # on busy_timeout instead of failing with "database is locked" on upgrade.
        "transaction_mode": "IMMEDIATE",
    }
else:
    # postgresql://user@/name?host=/run/socket-folder: the socket folder is the host.
    with_socket_host(DATABASES["default"])
# After erases and forgets on PostgreSQL (recall/engines/postgresql/compactor.py): full rewrites the
# user-data tables so deleted rows leave the data files; plain marks their space reusable;
# off leaves it to autovacuum.
MEMORY_POSTGRES_ERASE_VACUUM = env.choice("MEMORY_POSTGRES_ERASE_VACUUM", "full", ("full", "plain", "off"))
# The request rewrites nothing: a background pass (recall/engines/postgresql/compactor.py, Celery beat
# `compact-erasures`) runs this often, and waits at most this long for each table's lock.
MEMORY_POSTGRES_COMPACT_SECONDS = env.int("MEMORY_POSTGRES_COMPACT_SECONDS", default=300, minimum=1)
MEMORY_POSTGRES_COMPACT_LOCK_WAIT_MS = env.int("MEMORY_POSTGRES_COMPACT_LOCK_WAIT_MS", default=100, minimum=1)
# The user-data tables (recall index, turns, facts, ...) are hash-partitioned by user into this
# many slices, so a pass rewrites (and locks) only an erased user's slice: a hold is about table
# size / partitions (docs/deployment.md). Read when the migrations (recall 0009, facts 0010,
# profiles 0002) make the tables; `manage.py repartition` changes a live store's count.
MEMORY_POSTGRES_PARTITIONS = env.int("MEMORY_POSTGRES_PARTITIONS", default=64, minimum=1, maximum=1024)
# `manage.py check` warns when a user-data table's largest partition is above this many MB: the
# size a compaction rewrite passes in about 100 ms at 50-70 MB/s (docs/measurements.md §17);
# `manage.py repartition` gives the store more partitions (docs/deployment.md).
MEMORY_POSTGRES_PARTITION_WARN_MB = env.float("MEMORY_POSTGRES_PARTITION_WARN_MB", default=5.0, minimum=0.01)
# Read by `manage.py move_store`: the empty PostgreSQL database it moves the SQLite store
# into. From here rather than its command line, which `ps` shows to every user of the host.
MEMORY_MOVE_TO_URL = env.url(
    "MEMORY_MOVE_TO_URL", "", {"postgresql", "postgres"}, "postgresql://memory:secret@db.internal:5432/memory"
)
# Backups (docs/deployment.md, "Backups and restore"): where `manage.py backup` writes when not
# given a folder, how many it keeps there, and every how many hours beat takes one (0: never).
MEMORY_BACKUP_DIR = Path(env.str("MEMORY_BACKUP_DIR", default=str(VAR_DIR / "backups")))
MEMORY_BACKUP_KEEP = env.int("MEMORY_BACKUP_KEEP", default=7, minimum=1)
MEMORY_BACKUP_EVERY_HOURS = env.float("MEMORY_BACKUP_EVERY_HOURS", default=0.0, minimum=0)
# PostgreSQL backups run these programs (the server's major version or newer).
MEMORY_PG_DUMP = env.str("MEMORY_PG_DUMP", default="pg_dump")
MEMORY_PG_RESTORE = env.str("MEMORY_PG_RESTORE", default="pg_restore")
# Erasures a restore must re-apply (core/db/journal.py): a SQLite file no backup
# copies, or a postgresql:// URL of a database of its own that every host reaches.
MEMORY_ERASURE_JOURNAL = env.str("MEMORY_ERASURE_JOURNAL", default=str(VAR_DIR / "erasure-journal.sqlite3"))
# Per connection: SQLite's own page cache, and how much of the file it may map. Mapped
# pages are read in place from the OS cache (shared by every connection and process)
# instead of copied by a read() each: a recall over 1,000 episodes reads about 1,000
# scattered rows (docs/measurements.md §3, "Page cache and mmap"). Address space only.
SQLITE_CACHE_MB = env.int("SQLITE_CACHE_MB", default=2, minimum=0)
SQLITE_MMAP_MB = env.int("SQLITE_MMAP_MB", default=4096, minimum=0)
# A real file for tests too (Django would pick :memory:); the pid keeps
# parallel test runs on one machine apart (on PostgreSQL, a database of their own).
_test_name = (
    str(VAR_DIR / f"test-{os.getpid()}.sqlite3") if DATABASE_ENGINE == "sqlite" else f"test_memory_{os.getpid()}"
)
DATABASES["default"]["TEST"] = {"NAME": env.str("DATABASE_TEST_NAME", default=_test_name)}
# Streaming replicas that recall, the context block and the fact list and get routes read from,
# each user's only once it has replayed that user's last write (facts/replicas.py).
# Writes stay on the primary. Empty: every read on the primary.
DATABASE_REPLICA_URLS = env.list("DATABASE_REPLICA_URLS", default=[])
MEMORY_DATABASE_REPLICAS: list[str] = []
for _number, _url in enumerate(u.strip() for u in DATABASE_REPLICA_URLS if u.strip()):
    _replica = env.db_url_config(_url)
    if DATABASE_ENGINE != "postgresql" or _replica.get("ENGINE") != "django.db.backends.postgresql":
        raise ImproperlyConfigured(
            "DATABASE_REPLICA_URLS must be postgresql:// URLs, with DATABASE_URL on PostgreSQL too."
        )
    _replica.update(CONN_MAX_AGE=DATABASES["default"]["CONN_MAX_AGE"], CONN_HEALTH_CHECKS=True)
    # Tests run against the primary's test database: a replica alias mirrors it.
    _replica["TEST"] = {"MIRROR": "default"}
    DATABASES[f"replica{_number}"] = with_socket_host(_replica)
    MEMORY_DATABASE_REPLICAS.append(f"replica{_number}")
DATABASE_ROUTERS = ["facts.replicas.ReplicaRouter"]
# For the connection check (memory_service.W003): how many web hosts run with this configuration,
# how many connections the Celery workers that use the database hold in all, and "pgbouncer" when
# DATABASE_URL is PgBouncer in transaction mode (its pool then bounds the server's connections).
DATABASE_WEB_HOSTS = env.int("DATABASE_WEB_HOSTS", default=1, minimum=1)
DATABASE_WORKER_CONNECTIONS = env.int("DATABASE_WORKER_CONNECTIONS", default=4, minimum=0)
DATABASE_POOLER = env.choice("DATABASE_POOLER", "none", ("none", "pgbouncer"))
# On PostgreSQL, send each statement's parameters apart from its text (psycopg's server-side
# binding) instead of quoted into it by Django's client cursor, so the server does not lex the query
# vector's 384 numbers as a literal. Off by default: it changes how every query's parameters are
# typed, and measured under load it saved no backend CPU (docs/measurements.md §13). Statements stay
# unnamed (Django leaves psycopg's prepare_threshold unset): PgBouncer in transaction mode passes
# them, where named prepared statements need PgBouncer 1.21's max_prepared_statements (Debian 12: 1.18).
DATABASE_SERVER_SIDE_BINDING = env.bool("DATABASE_SERVER_SIDE_BINDING", default=False)
if DATABASE_ENGINE == "postgresql" and DATABASE_SERVER_SIDE_BINDING:
    for _alias in DATABASES:
        DATABASES[_alias].setdefault("OPTIONS", {})["server_side_binding"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
