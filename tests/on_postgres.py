"""Run pytest against a real PostgreSQL 16 with pgvector, no Docker: `pgserver` (a PyPI wheel
bundling both) starts a private server in a temporary folder, DATABASE_URL points every
process of the run at it (Django creates its test database there), and the server stops
when pytest exits.

    .venv/bin/python tests/on_postgres.py [pytest arguments]

`make test` runs the suite this way after the SQLite run, leaving out the tests marked
`sqlite_only` (docs/testing.md, "Both engines").
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path


def main(argv: list[str]) -> int:
    # platformdirs (under pgserver) wants a private runtime folder.
    os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="runtime-"))
    import pgserver
    from pgserver._commands import POSTGRES_BIN_PATH

    given = os.environ.get("MEMORY_TEST_PGDATA")
    data = Path(given or tempfile.mkdtemp(prefix="memory-pg-"))
    # A folder this run made goes with the server; one the caller named is theirs to keep.
    server = pgserver.get_server(data, cleanup_mode="stop" if given else "delete")
    try:
        no_durability(server)
        env = {**os.environ, "DATABASE_URL": server.get_uri(), "MEMORY_TEST_PGDATA": str(data)}
        # Backups run the client programs of the same build (tests/facts/test_backup_restore_postgresql.py).
        env.setdefault("MEMORY_PG_DUMP", str(POSTGRES_BIN_PATH / "pg_dump"))
        env.setdefault("MEMORY_PG_RESTORE", str(POSTGRES_BIN_PATH / "pg_restore"))
        # 8 hash partitions per user-data table instead of the default 64: the partition code is
        # the same at any count, and each test database's migrate, every flush between
        # transactional tests and every scan of the cluster's files touch 8x fewer relations.
        env.setdefault("MEMORY_POSTGRES_PARTITIONS", "8")
        return subprocess.call([sys.executable, "-m", "pytest", *argv], env=env)
    finally:
        server.cleanup()


def no_durability(server) -> None:
    """A test server need not survive a power cut: no fsync, no full-page images, commits not
    waited for. Each flush between transactional tests truncates every table's partitions,
    and with fsync each took 2-3 s of a loaded CI machine (docs/testing.md, "Both engines").
    `synchronous_commit = off` is also how operators tune a busy primary: reading one's own
    writes from a replica must hold there too (facts/replicas.py `written_position`)."""
    for setting in ("fsync = off", "synchronous_commit = off", "full_page_writes = off"):
        server.psql(f"ALTER SYSTEM SET {setting};")
    server.psql("SELECT pg_reload_conf();")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
