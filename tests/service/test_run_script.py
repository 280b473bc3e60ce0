"""`make run`'s script: a Celery worker that dies is started again while the web server keeps serving;
Ctrl-C stops both and the script ends with status 0."""

from __future__ import annotations

import os
import signal
import urllib.request
from pathlib import Path

import pytest

from tests.integration.stack import ROOT, Proc, clean_env, free_port, wait_for
from tests.migrated import migrate

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def _celery_workers(run: Proc) -> list[int]:
    """Pids of the Celery main processes started by the script (not their pool children)."""
    return [
        pid for pid in run.pids() if "celery" in _cmdline(pid) and "worker" in _cmdline(pid) and _parent(pid) == run.pid
    ]


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return -1


def _health(base: str) -> int:
    try:
        with urllib.request.urlopen(f"{base}/api/v1/health", timeout=5) as response:
            return response.status
    except OSError:
        return 0


def test_a_dead_worker_is_restarted_the_web_server_keeps_serving_and_ctrl_c_stops_both_cleanly(tmp_path):
    port = free_port()
    env = clean_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'memory.sqlite3'}",
        MEMORY_VAR_DIR=str(tmp_path),
        HOST="127.0.0.1",
        PORT=str(port),
        WORKER_RESTART_SECONDS="0.5",
    )
    migrate(env)
    run = Proc("run", ["bash", "scripts/run.sh", "run"], cwd=ROOT, env=env, log_dir=tmp_path)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: run.log().count("request threads warm") >= 2, 240, 0.5, "gunicorn's workers")
        first = wait_for(lambda: _celery_workers(run), 60, 0.2, "the Celery worker")[0]
        wait_for(lambda: run.log().count("ready.") >= 1, 120, 0.5, "the first worker to be ready")
        assert _health(base) == 200

        os.kill(first, signal.SIGKILL)
        second = wait_for(lambda: [p for p in _celery_workers(run) if p != first], 60, 0.2, "a new worker")[0]
        assert "the Celery worker exited; starting it again" in run.log()
        assert _health(base) == 200
        wait_for(lambda: run.log().count("ready.") >= 2, 120, 0.5, "the new worker to be ready")

        # Ctrl-C: a terminal sends SIGINT to the whole foreground group, the web server too,
        # which may stop before the script's trap runs; the script still says it stopped.
        os.killpg(run.pid, signal.SIGINT)
        assert run.popen.wait(timeout=60) == 0, run.log()[-2000:]
        assert "run.sh: stopped." in run.log() and "the web server exited" not in run.log()
        wait_for(lambda: _health(base) == 0 and not _cmdline(second), 30, 0.2, "everything to stop")
    finally:
        run.stop()
