"""Backups of the embedded SQLite store: `VACUUM INTO` while the service runs, and a
restore that swaps a checked, erasure-replayed copy into place.

`VACUUM INTO` reads one snapshot (WAL readers never block the writer), writes a compact
new file with no free pages (so nothing erased before the backup is in it) and runs on
the service's own connection, where sqlite-vec is loaded.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3  # sqlean, installed as sqlite3 by memory_service.sqlite_driver
from collections.abc import Iterator
from pathlib import Path

from django.db import connection

from memory_service.backup.manifest import Damaged
from memory_service.private_files import COMPANIONS, private_database

FILE = "database.sqlite3"


def live_path() -> Path:
    return Path(connection.settings_dict["NAME"])


def copy_to(target: Path) -> None:
    # VACUUM INTO needs an absent or empty file: an empty one made 0600 first keeps the copy private.
    private_database(target)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM INTO %s", [str(target)])


@contextlib.contextmanager
def _read(path: Path) -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        yield conn
    finally:
        conn.close()


def row_counts(path: Path) -> dict[str, int]:
    """Rows per ordinary table (virtual tables are counted through their shadow tables)."""
    with _read(path) as conn:
        names = [
            row[0]
            for row in conn.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' "
                "AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        return {name: conn.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0] for name in names}


def applied_migrations(path: Path) -> dict[str, list[str]]:
    applied: dict[str, list[str]] = {}
    with _read(path) as conn:
        for app, name in conn.execute("SELECT app, name FROM django_migrations ORDER BY app, name"):
            applied.setdefault(app, []).append(name)
    return applied


def check_integrity(path: Path) -> None:
    try:
        with _read(path) as conn:
            result = conn.execute("PRAGMA integrity_check").fetchall()
    except sqlite3.DatabaseError as exc:
        raise Damaged(f"{path.name} is not a readable SQLite database: {exc}") from exc
    if result != [("ok",)]:
        raise Damaged(f"{path.name} fails SQLite's integrity check: {result[:3]}")


def put_in_place(restored: Path, live: Path) -> None:
    """Replace the live file (and its WAL, which belongs to the old file) with `restored`."""
    for suffix in COMPANIONS[1:]:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{live}{suffix}")
    os.replace(restored, live)
    for leftover in (f"{restored}-wal", f"{restored}-shm", f"{restored}.writers", f"{restored}.in-use"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(leftover)
