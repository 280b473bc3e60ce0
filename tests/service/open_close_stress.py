"""Run by test_sqlite_driver as separate OS processes: connections opened and closed under writes.

`reader DB SECONDS THREADS`: THREADS threads each open a connection, read,
and close it, for SECONDS; then print the number of cycles. Half the threads go
through Django's backend (sqlite-vec, PRAGMAs), half call the driver module that
backend uses directly, which cycles about ten times faster and so meets the
open/close race of SQLite 3.51.0-3.51.1 within seconds. `writer DB`: insert
rows until killed.
"""

from __future__ import annotations

import os
import sys
import threading
import time

import django


def _setup(db_path: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{db_path}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_service.settings")
    django.setup()


def writer() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        while True:
            cursor.execute("INSERT INTO probe(n) VALUES (1)")


def reader(db_path: str, seconds: float, threads: int) -> None:
    from django.db import connections
    from django.db.backends.sqlite3.base import Database

    cycles = [0] * threads
    deadline = time.monotonic() + seconds

    def through_django(slot: int) -> None:
        # Each thread has its own Django connection object (they are thread-local).
        connection = connections["default"]
        while time.monotonic() < deadline:
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM probe")
                cursor.fetchone()
            connection.close()
            cycles[slot] += 1

    def through_driver(slot: int) -> None:
        while time.monotonic() < deadline:
            raw = Database.connect(db_path, timeout=30)
            raw.execute("SELECT count(*) FROM probe").fetchone()
            raw.close()
            cycles[slot] += 1

    workers = [threading.Thread(target=through_django if n == 0 else through_driver, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    print(sum(cycles), flush=True)


if __name__ == "__main__":
    _setup(sys.argv[2])
    if sys.argv[1] == "writer":
        writer()
    else:
        reader(sys.argv[2], float(sys.argv[3]), int(sys.argv[4]))
