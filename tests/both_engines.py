"""`make test`: the whole suite on the embedded SQLite default and, at the same time, the
engine-dependent tests again on PostgreSQL (tests/on_postgres.py).

The runs share nothing (each has its own database, var files, ports and stray-process
mark), and much of each is spent waiting on the processes its tests start, so on two cores
they finish together sooner than one after the other. The SQLite run, the larger, is itself
split over SQLITE_WORKERS pytest-xdist processes, a test file each at a time (a file's tests
share its module fixtures); it prints as it goes. The PostgreSQL run prints when both are
done. The exit status is the first failure's.

    .venv/bin/python tests/both_engines.py [paths for the PostgreSQL run]
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG_ONLY = "not sqlite_only and not browser"
SQLITE_WORKERS = "2"


def main(pg_paths: list[str]) -> int:
    started = time.monotonic()
    with tempfile.TemporaryFile(prefix="postgresql-run-") as pg_output:
        pg_run = subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "on_postgres.py"), "-m", PG_ONLY, *pg_paths],
            cwd=ROOT,
            stdout=pg_output,
            stderr=subprocess.STDOUT,
        )
        try:
            sqlite_status = subprocess.call(
                [sys.executable, "-m", "pytest", "-n", SQLITE_WORKERS, "--dist", "loadfile"], cwd=ROOT
            )
        finally:
            pg_status = pg_run.wait()
        pg_output.seek(0)
        print(f"\n===== the same tests on PostgreSQL ({' '.join(pg_paths)}) =====", flush=True)
        sys.stdout.buffer.write(pg_output.read())
    print(f"\nboth engines: {time.monotonic() - started:.0f} s", flush=True)
    return sqlite_status or pg_status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
