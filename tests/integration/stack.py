"""Real processes for integration tests: a Redis server, Celery workers, the web server.

Everything binds 127.0.0.1 on a free port and lives in a temp folder; every
process is started in its own session so a test can SIGKILL a whole worker
(main process and pool children) and the finalizers can stop what is left.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# Variables of the parent process that must not leak into a service's environment.
_SCRUB_PREFIXES = ("DATABASE_", "CELERY_", "OPENAI_", "MEMORY_", "DJANGO_")
# ...but for the run's choice of hash partitions on PostgreSQL (tests/on_postgres.py sets 8): a
# service database migrated at the default 64 took 47 s against 5 s on a busy 2-core machine,
# and every flush and scan of the cluster's files touched eight times the relations.
_KEPT = ("MEMORY_POSTGRES_PARTITIONS",)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(predicate, timeout: float = 30.0, interval: float = 0.1, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise TimeoutError(f"Timed out after {timeout}s waiting for {what}")


def clean_env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k in _KEPT or not k.startswith(_SCRUB_PREFIXES)}
    env.update(
        {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONUNBUFFERED": "1", "CELERY_TASK_ALWAYS_EAGER": "0"}
    )
    env.update(extra)
    return env


class Proc:
    """A child process in its own session, with its output in a log file."""

    def __init__(self, name: str, args: list[str], *, cwd: Path, env: dict, log_dir: Path):
        self.name = name
        self.log_path = log_dir / f"{name}.log"
        self._log = self.log_path.open("ab")
        self.popen = subprocess.Popen(
            args, cwd=cwd, env=env, stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True
        )

    @property
    def pid(self) -> int:
        return self.popen.pid

    def pids(self) -> list[int]:
        """The process and its children (a worker's pool processes)."""
        found = [self.pid]
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                ppid = int(stat.rsplit(")", 1)[1].split()[1])
                if ppid in found:
                    found.append(int(entry.name))
        return found

    def open_files(self) -> set[str]:
        paths = set()
        for pid in self.pids():
            fd_dir = Path(f"/proc/{pid}/fd")
            try:
                for fd in fd_dir.iterdir():
                    with contextlib.suppress(OSError):
                        paths.add(os.readlink(fd))
            except OSError:
                pass
        return paths

    def kill(self) -> None:
        """SIGKILL the whole process group: no chance to ack, requeue or clean up."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(timeout=10)

    def stop(self) -> None:
        """Stop the process and everything left in its process group: a worker killed by a
        test (SIGKILL) may have left pool processes behind, which must not outlive the test."""
        if self.popen.poll() is None:
            try:
                os.killpg(self.popen.pid, signal.SIGTERM)
                self.popen.wait(timeout=15)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        self._log.close()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-6000:]


def start_redis(tmp: Path) -> tuple[Proc, str]:
    redis_bin = shutil.which("redis-server")
    if redis_bin is None:
        raise RuntimeError("redis-server is missing: run `bash scripts/system-deps.sh` (installs it from Debian).")
    port = free_port()
    data = tmp / "redis"
    data.mkdir()
    proc = Proc(
        "redis",
        [
            redis_bin,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(data),
            "--save",
            "",
            "--appendonly",
            "no",
            "--protected-mode",
            "yes",
        ],
        cwd=data,
        env=clean_env(),
        log_dir=tmp,
    )
    url = f"redis://127.0.0.1:{port}/0"

    def ready():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    wait_for(ready, 15, what="redis-server")
    return proc, url


def manage(args: list[str], env: dict) -> str:
    out = subprocess.run(
        [str(BIN / "python"), "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=180
    )
    if out.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{out.stdout}\n{out.stderr}")
    return out.stdout


def start_worker(
    name: str, queues: str, *, cwd: Path, env: dict, log_dir: Path, concurrency: int = 1, extra: tuple[str, ...] = ()
) -> Proc:
    proc = Proc(
        name,
        [
            str(BIN / "celery"),
            "-A",
            "memory_service",
            "worker",
            "-Q",
            queues,
            "-n",
            f"{name}@%h",
            "--concurrency",
            str(concurrency),
            "--loglevel",
            "INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            *extra,
        ],
        cwd=cwd,
        env=env,
        log_dir=log_dir,
    )
    wait_for(lambda: "ready." in proc.log() or proc.popen.poll() is not None, 60, 0.2, f"worker {name}")
    if proc.popen.poll() is not None:
        raise RuntimeError(f"worker {name} exited:\n{proc.log()}")
    return proc


def start_web(env: dict, log_dir: Path) -> tuple[Proc, str]:
    port = free_port()
    proc = Proc(
        "web",
        [str(BIN / "python"), "-m", "tests.integration.runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=env,
        log_dir=log_dir,
    )
    base = f"http://127.0.0.1:{port}"

    def ready():
        try:
            with urllib.request.urlopen(f"{base}/api/v1/health", timeout=1) as r:
                return r.status == 200
        except (urllib.error.URLError, OSError):
            return proc.popen.poll() is not None

    wait_for(ready, 60, 0.2, "web server")
    if proc.popen.poll() is not None:
        raise RuntimeError(f"web server exited:\n{proc.log()}")
    return proc, base


class Http:
    """A tiny JSON client for the live API."""

    def __init__(self, base: str, key: str, timeout: float = 30):
        self.base = base
        self.key = key
        self.timeout = timeout  # seconds per request; the first write loads the embedding model

    def call(self, method: str, path: str, body=None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            f"{self.base}/api/v1{path}",
            data=data,
            method=method,
            headers={"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null")

    def post(self, path, body=None):
        return self.call("POST", path, body)

    def get(self, path):
        return self.call("GET", path)
