"""Read the test database's files the only safe way: from another process.

SQLite's locks are POSIX advisory locks, which belong to a process, not to a
file descriptor: closing *any* descriptor on a file drops every lock the
process holds on it (docs/testing.md, "Reading the database files"). A test
that opened the database file, its WAL or its shared-memory file with
``open()`` and closed it silently released the locks of every connection of
the test process. The next process to open the database (a Celery worker, the
production server) then believed it was alone, rebuilt the WAL index under the
test process's feet, and the file was corrupted ("database disk image is
malformed"). A child process's descriptors do not touch our locks.
"""

from __future__ import annotations

import contextlib
import subprocess
from pathlib import Path


def file_bytes(path: Path) -> bytes:
    """The bytes of ``path``, read by a child process (b"" if it does not exist)."""
    if not path.exists():
        return b""
    return subprocess.run(["cat", "--", str(path)], capture_output=True, check=True).stdout


def postgres_data_files(database: str | None = None) -> dict[str, bytes]:
    """The table and index files of the PostgreSQL cluster the run uses (tests/on_postgres.py
    sets MEMORY_TEST_PGDATA): global/ and, under base/, every database's, or only `database`'s
    when named. Not pg_wal/: the write-ahead log keeps deleted rows until its segments are
    recycled (docs/deployment.md, "What erased means on PostgreSQL").

    Name the database where only one can hold the words: the run's server gathers a database
    for every server a test starts, and reading all of them made each read of the main run's
    forget tests take seconds."""
    import os

    from tests.base import postgres_checkpoint

    postgres_checkpoint()
    data = Path(os.environ["MEMORY_TEST_PGDATA"])
    folders = (
        [data / "global", data / "base" / _database_oid(database)] if database else [data / "base", data / "global"]
    )
    files = {}
    for folder in folders:
        for path in folder.rglob("*"):
            # A file gone between the listing and the read held a dropped database or a rewritten
            # table (another pytest-xdist worker's, on the same server): no bytes left to read.
            with contextlib.suppress(FileNotFoundError):
                if path.is_file():
                    files[str(path.relative_to(data))] = path.read_bytes()
    return files


def _database_oid(name: str) -> str:
    from tests.base import server_connection

    with server_connection() as conn:
        row = conn.execute("SELECT oid FROM pg_database WHERE datname = %s", [name]).fetchone()
    assert row is not None, f"no database {name!r} on the run's server"
    return str(row[0])
