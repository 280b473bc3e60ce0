"""Writers take turns on a lock file before SQLite's write lock (core/db/base.py).

Every write transaction starts with BEGIN IMMEDIATE, which takes SQLite's one write lock.
A connection that finds it taken does not queue: SQLite's busy handler sleeps and tries
again, 1, 2, 5, 10, 15, 20, 25 ... up to 100 ms at a time, so a web request posting a
turn while the worker writes back to back could sleep tens of milliseconds after the
lock was free, and lose it again to the worker (docs/measurements.md §12). Here each
connection first takes an exclusive flock(2) on `<database>.writers`, trying again every
half millisecond (two at most), then BEGIN IMMEDIATE finds SQLite's lock free. flock
belongs to the open file description, so two connections of one process exclude each
other like two processes do, and the lock is a file of its own: it never touches the
database file's POSIX locks (docs/testing.md, "Reading the database files").
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

from django.db import OperationalError

from core.private_files import FILE_MODE

FIRST_WAIT = 0.0005
LONGEST_WAIT = 0.002


class WriterTurn:
    """One connection's handle on the lock file."""

    def __init__(self, database: str) -> None:
        path = Path(f"{database}.writers")
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE)
        self.held = False

    def take(self, timeout: float) -> None:
        deadline, wait = time.monotonic() + timeout, FIRST_WAIT
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self.held = True
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise OperationalError("database is locked (another writer held it too long)") from None
                time.sleep(wait)
                wait = min(wait * 2, LONGEST_WAIT)

    def give_back(self) -> None:
        if self.held:
            self.held = False
            fcntl.flock(self.fd, fcntl.LOCK_UN)

    def close(self) -> None:
        self.give_back()
        os.close(self.fd)
