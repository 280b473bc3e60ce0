"""`make test`: the whole suite on the embedded SQLite default and, at the same time, the
engine-dependent tests again on PostgreSQL (tests/on_postgres.py).

The runs share nothing (each has its own database, var files, ports and stray-process
mark), and much of each is spent waiting on the processes its tests start, so on two cores
they finish together sooner than one after the other. The SQLite run is split over
SQLITE_WORKERS pytest-xdist processes, a test file each at a time (a file's tests share its
module fixtures); each worker has a test database of its own (pytest-django adds `_gw0`,
`_gw1` to its name). The PostgreSQL run has PG_WORKERS (one) on its server, and the tests
about the server itself (`*_postgresql.py`: its data files, a replica
made with pg_basebackup, the databases a restore makes and drops, PgBouncer) run beside
them in one process on a server of their own, as they did before. The SQLite run prints as
it goes, the PostgreSQL runs when all are done. The exit status is the first failure's.

    .venv/bin/python tests/both_engines.py [paths for the PostgreSQL run]
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG_ONLY = "not sqlite_only and not no_database and not browser"
SQLITE_WORKERS = "2"
# One: on a server shared by two workers, the forget tests found their words still in the files
# after a complete compaction pass (the CI run of 3139bbc), and the run was no faster on 2 cores.
PG_WORKERS = "1"
SERVER_TESTS = "test_*_postgresql.py"
# A file at a time; and the slowest tests named at the end, to see where a long run went.
XDIST = ["--dist", "loadfile", "--no-loadscope-reorder", "--durations=25"]


def _server_tests(pg_paths: list[str]) -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for path in pg_paths for p in (ROOT / path).rglob(SERVER_TESTS))


def main(pg_paths: list[str]) -> int:
    started = time.monotonic()
    on_postgres = [sys.executable, str(ROOT / "tests" / "on_postgres.py"), "-m", PG_ONLY]
    pg_runs = {"on PostgreSQL": [*on_postgres, "-n", PG_WORKERS, *XDIST, f"--ignore-glob=*/{SERVER_TESTS}", *pg_paths]}
    if server_tests := _server_tests(pg_paths):
        pg_runs["about the PostgreSQL server, on one of their own"] = [*on_postgres, "--durations=10", *server_tests]
    with contextlib.ExitStack() as files:
        outputs = {name: files.enter_context(tempfile.TemporaryFile(prefix="postgresql-run-")) for name in pg_runs}
        running = {
            name: subprocess.Popen(command, cwd=ROOT, stdout=outputs[name], stderr=subprocess.STDOUT)
            for name, command in pg_runs.items()
        }
        try:
            sqlite_status = subprocess.call([sys.executable, "-m", "pytest", "-n", SQLITE_WORKERS, *XDIST], cwd=ROOT)
        finally:
            pg_statuses = [run.wait() for run in running.values()]
        for name, output in outputs.items():
            output.seek(0)
            print(f"\n===== the same tests {name} ({' '.join(pg_paths)}) =====", flush=True)
            sys.stdout.buffer.write(output.read())
    print(f"\nboth engines: {time.monotonic() - started:.0f} s", flush=True)
    return sqlite_status or next((s for s in pg_statuses if s), 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
