"""A Celery worker killed with SIGKILL takes its children with it, the pool processes and the
embedded beat of `-B` (as `make run` starts it): each watches its parent
(memory_service/celery.py) and exits once it is gone. Before, the beat process lived on."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.integration.stack import ROOT, clean_env, start_worker, wait_for
from tests.migrated import migrate

# About the embedded broker and the worker processes, the same whatever the database engine.
pytestmark = [pytest.mark.integration, pytest.mark.sqlite_only]


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_a_killed_worker_leaves_no_pool_or_beat_process_running(tmp_path):
    var = tmp_path / "var"
    var.mkdir()
    env = clean_env(DATABASE_URL=f"sqlite:///{tmp_path / 'memory.sqlite3'}", MEMORY_VAR_DIR=str(var))
    migrate(env)
    beat = ("-B", "--schedule", str(var / "celerybeat-schedule"))
    worker = start_worker("orphans", "db,llm,embed", cwd=ROOT, env=env, log_dir=tmp_path, concurrency=2, extra=beat)
    try:
        wait_for(lambda: len(_children(worker.popen.pid)) >= 3, 60, 0.2, "two pool processes and beat")
        pool = _children(worker.popen.pid)
        os.kill(worker.popen.pid, signal.SIGKILL)
        worker.popen.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(map(_alive, pool)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert [pid for pid in pool if _alive(pid)] == [], "children outlived their worker by 10 s"
    finally:
        worker.stop()
