"""The throwaway service `eval_pipeline` runs against: a temp folder holding the SQLite file
and the embedded broker's folder, a web server and a Celery worker as child processes.

The command re-runs itself inside that environment (`inner_env`), so every database call
of the measurement goes to the temp file; the operator's database is never opened.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

MARKER = "MEMORY_EVAL_PIPELINE_DIR"  # set in the re-run: the temp folder it owns


def inner_env(workdir: Path) -> dict[str, str]:
    """The environment of the re-run and of its server and worker: everything under workdir."""
    # The broker is left to the embedded default, whose folder lies under MEMORY_VAR_DIR.
    env = {key: value for key, value in os.environ.items() if key != "CELERY_BROKER_URL"}
    return {
        **env,
        MARKER: str(workdir),
        "MEMORY_VAR_DIR": str(workdir),
        "DATABASE_URL": f"sqlite:///{workdir / 'memory.sqlite3'}",
        "CELERY_TASK_ALWAYS_EAGER": "off",
        "DJANGO_SETTINGS_MODULE": "memory_service.settings",
        "HF_HUB_OFFLINE": "1",
        "LOG_LEVEL": os.environ.get("EVAL_PIPELINE_LOG_LEVEL", "WARNING"),
        # The replay posts as fast as the API takes it: it measures the pipeline, not the limiter.
        "MEMORY_RATE_LIMIT_WRITE": "off",
        "MEMORY_RATE_LIMIT_READ": "off",
        "MEMORY_RATE_LIMIT_RECALL": "off",
    }


def in_throwaway() -> bool:
    """True in the re-run, and only when the database and the broker lie in its temp folder
    (a broker named in the operator's .env would be theirs)."""
    workdir = os.environ.get(MARKER)
    if not workdir:
        return False
    broker = settings.CELERY_BROKER_URL
    if workdir not in broker:
        return False
    return Path(settings.DATABASES["default"]["NAME"]).resolve().is_relative_to(Path(workdir).resolve())


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(port: int, process: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the web server exited with code {process.returncode} before listening")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the web server did not listen on port {port} within {timeout:.0f}s")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Worker:
    """The Celery worker, started again if it dies (as a process supervisor would); counts restarts."""

    def __init__(self, argv: list[str], env: dict, log_path: Path):
        self.argv, self.env, self.log_path = argv, env, log_path
        self.restarts = 0
        self._stopping = threading.Event()
        self.process = self._start()
        self._watch = threading.Thread(target=self._supervise, daemon=True)
        self._watch.start()

    def _start(self) -> subprocess.Popen:
        with open(self.log_path, "ab") as log:
            return subprocess.Popen(
                self.argv, env=self.env, cwd=settings.BASE_DIR, stdout=log, stderr=subprocess.STDOUT
            )

    def _supervise(self) -> None:
        while not self._stopping.wait(1.0):
            if self.process.poll() is not None:
                self.restarts += 1
                self.process = self._start()

    def stop(self) -> None:
        self._stopping.set()
        self._watch.join()
        _stop(self.process)


@contextmanager
def service(*, llm_base_url: str, workdir: Path, concurrency: int):
    """Yield (base URL of a running web server, its Worker); stop both after."""
    env = {
        **os.environ,
        "OPENAI_API_KEY": "replay",
        "OPENAI_BASE_URL": llm_base_url,
        "MEMORY_LLM_BACKOFF_SECONDS": "0.2",
    }
    manage = str(Path(settings.BASE_DIR) / "manage.py")
    port = free_port()
    logs = workdir / "logs"
    logs.mkdir(exist_ok=True)
    queues = ",".join([settings.MEMORY_QUEUE_DB, settings.MEMORY_QUEUE_LLM, settings.MEMORY_QUEUE_EMBED])
    worker_argv = [sys.executable, "-m", "celery", "-A", "memory_service", "worker", "-Q", queues]
    worker_argv += ["--concurrency", str(concurrency), "--loglevel", "WARNING"]
    worker_argv += ["--without-heartbeat", "--without-gossip", "--without-mingle"]
    server = worker = None
    try:
        with open(logs / "server.log", "wb") as server_log:
            server = subprocess.Popen(
                [sys.executable, manage, "runserver", f"127.0.0.1:{port}", "--noreload", "--skip-checks"],
                env=env,
                cwd=settings.BASE_DIR,
                stdout=server_log,
                stderr=subprocess.STDOUT,
            )
        worker = Worker(worker_argv, env, logs / "worker.log")
        _wait_for_port(port, server, timeout=60)
        yield f"http://127.0.0.1:{port}", worker
    finally:
        if worker is not None:
            worker.stop()
        if server is not None:
            _stop(server)
