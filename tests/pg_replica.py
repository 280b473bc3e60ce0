"""A real streaming replica of the PostgreSQL server a test run uses (tests/on_postgres.py).

`pg_basebackup -R` from the primary into a folder of its own, started with the same pgserver
binaries on a socket folder of its own; stopped and deleted after. As root, pgserver runs its
server as the system user `pgserver`; the replica runs as that user too.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg

from core.db.postgresql_urls import connect_kwargs

PORT = 5433  # on its own socket folder, so no clash with the primary's


def _as_server_user(command: list[str], folder: Path) -> subprocess.CompletedProcess:
    user = "pgserver" if os.geteuid() == 0 else None
    if user is not None:
        entry = pwd.getpwnam(user)
        for path in [folder, *folder.rglob("*")]:
            os.chown(path, entry.pw_uid, entry.pw_gid)
    return subprocess.run(command, user=user, check=True, capture_output=True, text=True, timeout=120)


@contextlib.contextmanager
def streaming_replica(primary: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Django settings of a hot standby streaming from `primary` (Django settings, socket host)."""
    from pgserver._commands import POSTGRES_BIN_PATH

    folder = Path(tempfile.mkdtemp(prefix="memory-replica-"))
    folder.chmod(0o755)
    data = folder / "data"
    started = False
    try:
        primary_host = primary.get("HOST") or "/tmp"
        _as_server_user(
            [
                str(POSTGRES_BIN_PATH / "pg_basebackup"),
                *("-D", str(data), "-R", "-X", "stream", "-c", "fast"),
                *("-h", primary_host, "-p", str(primary.get("PORT") or 5432), "-U", primary["USER"]),
            ],
            folder,
        )
        options = f"-c port={PORT} -c unix_socket_directories={folder} -c listen_addresses='' -c hot_standby=on"
        _as_server_user(
            [
                str(POSTGRES_BIN_PATH / "pg_ctl"),
                "-D",
                str(data),
                "-o",
                options,
                "-l",
                str(folder / "log"),
                "-w",
                "start",
            ],
            folder,
        )
        started = True
        replica = {**primary, "HOST": str(folder), "PORT": str(PORT)}
        _wait_until_streaming(replica)
        yield replica
    finally:
        if started:
            subprocess.run(
                [str(POSTGRES_BIN_PATH / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                user="pgserver" if os.geteuid() == 0 else None,
                capture_output=True,
                timeout=60,
            )
        shutil.rmtree(folder, ignore_errors=True)


def _wait_until_streaming(replica: dict[str, Any], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with psycopg.connect(**connect_kwargs(replica), autocommit=True) as conn:
                if conn.execute("SELECT pg_is_in_recovery()").fetchone()[0]:
                    return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.2)


def wait_until_replayed(primary: dict[str, Any], replica: dict[str, Any], timeout: float = 120.0) -> None:
    """Until the replica has replayed everything the primary has written so far. A new connection
    per look: replaying a long backlog can end a standby's sessions (a recovery conflict), as a
    1,000-probe run's did once."""
    with psycopg.connect(**connect_kwargs(primary), autocommit=True) as conn:
        # The insert position: with synchronous_commit off the write position may lag it.
        target = conn.execute("SELECT pg_current_wal_insert_lsn()").fetchone()[0]
    deadline = time.monotonic() + timeout
    while True:
        try:
            with psycopg.connect(**connect_kwargs(replica), autocommit=True) as conn:
                if conn.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [target]).fetchone()[0]:
                    return
        except psycopg.OperationalError:
            pass
        if time.monotonic() > deadline:
            raise TimeoutError("the replica did not catch up")
        time.sleep(0.1)


def set_replay(replica: dict[str, Any], *, paused: bool) -> None:
    with psycopg.connect(**connect_kwargs(replica), autocommit=True) as conn:
        conn.execute("SELECT pg_wal_replay_pause()" if paused else "SELECT pg_wal_replay_resume()")
