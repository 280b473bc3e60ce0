"""SQLite: backups of the embedded store, `VACUUM INTO` while the service runs, and a
restore that swaps a checked, erasure-replayed copy into place (memory_service/backup/store.py
runs the steps common to both engines).

`VACUUM INTO` reads one snapshot (WAL readers never block the writer), writes a compact
new file with no free pages (so nothing erased before the backup is in it) and runs on
the service's own connection, where sqlite-vec is loaded.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3  # sqlean, installed as sqlite3 by core.sqlite_driver
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TypeVar

from django.db import connection

from core.backup.manifest import Copy, Damaged, Manifest, Progress, by_app, check_counts, step
from core.db import in_use
from core.private_files import COMPANIONS, private_database
from recall.engines.sqlite.scrub import wal_checkpoint

T = TypeVar("T")

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
    with _read(path) as conn:
        return by_app(conn.execute("SELECT app, name FROM django_migrations"))


def check_integrity(path: Path) -> None:
    try:
        with _read(path) as conn:
            result = conn.execute("PRAGMA integrity_check").fetchall()
    except sqlite3.DatabaseError as exc:
        raise Damaged(f"{path.name} is not a readable SQLite database: {exc}") from exc
    if result != [("ok",)]:
        raise Damaged(f"{path.name} fails SQLite's integrity check: {result[:3]}")


# What SQLite and this service's locks (core/db/writers.py, in_use.py) keep beside a file.
SIDE_FILES = ("-wal", "-shm", ".writers", ".in-use")


def _unlink(paths: Iterable[Path | str]) -> None:
    for path in paths:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


def discard(path: Path) -> None:
    """A working copy that will not be put in place, with its side files."""
    _unlink([path, *(f"{path}{suffix}" for suffix in SIDE_FILES)])


def put_in_place(restored: Path, live: Path) -> None:
    """Replace the live file (and its WAL, which belongs to the old file) with `restored`."""
    _unlink(f"{live}{suffix}" for suffix in COMPANIONS[1:])
    os.replace(restored, live)
    _unlink(f"{restored}{suffix}" for suffix in SIDE_FILES)


@contextlib.contextmanager
def connection_on(path: Path) -> Iterator[None]:
    """This thread's default connection on another SQLite file of the same schema."""
    original = connection.settings_dict["NAME"]
    connection.close()
    connection.settings_dict["NAME"] = str(path)
    try:
        yield
    finally:
        connection.close()
        # Opening it marked this process as a user of that file (core/db/in_use.py).
        in_use.release(str(path))
        connection.settings_dict["NAME"] = original


def back_up(folder: Path, progress: Progress) -> Copy:
    target = folder / FILE
    step(progress, "copy (VACUUM INTO)")
    copy_to(target)
    step(progress, "count rows")
    return Copy(target, row_counts(target), applied_migrations(target))


def restore(folder: Path, manifest: Manifest, bring_up_to_date: Callable[[], T], progress: Progress) -> T:
    """Copy the backup beside the live file, check it, bring it up to date on this process's
    connection, then rename it over the live file (no other process has the file meanwhile)."""
    live = live_path()
    connection.close()
    with in_use.exclusive(str(live)):
        work = live.parent / f".{live.name}.restoring-{os.getpid()}"
        try:
            step(progress, "copy and check")
            private_database(work)
            shutil.copyfile(folder / FILE, work)
            check_integrity(work)
            check_counts(manifest, row_counts(work))
            with connection_on(work):
                result = bring_up_to_date()
                wal_checkpoint()
            step(progress, "put in place")
            put_in_place(work, live)
        except BaseException:
            discard(work)
            raise
    return result
