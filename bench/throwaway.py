"""A throwaway service for the commands that measure the whole stack (`eval_pipeline`,
`bench_api`, `bench_ingest`, `bench_extraction`): a temp folder holding the SQLite file
and the embedded broker, a web server and a Celery worker as child processes.

A command re-runs itself inside that environment (`rerun`), so every database call of
the measurement goes to the temp file; the operator's database is never opened.

With MEMORY_BENCH_POSTGRES=postgresql://user:password@host:port/any set, the throwaway
database is a new database `throwaway_<hex>` on that PostgreSQL server instead of the
file, dropped afterwards (kept with --keep).
"""

from __future__ import annotations

import os
import runpy
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from core import engine
from recall.engines.postgresql.throwaway import new_database

MARKER = "MEMORY_THROWAWAY_DIR"  # set in the re-run: the temp folder it owns
ON_POSTGRES = "MEMORY_BENCH_POSTGRES"  # a PostgreSQL server to make the throwaway database on
DATABASE = "MEMORY_THROWAWAY_DATABASE"  # set in the re-run: the PostgreSQL database it owns
OWN_BROKER = "MEMORY_THROWAWAY_BROKER"  # a broker the measuring command started for itself (bench_extraction)
SERVERS = ("gunicorn", "runserver")


def inner_env(workdir: Path, extra: dict[str, str] | None = None, database_url: str = "") -> dict[str, str]:
    """The environment of the re-run and of its server and worker: everything under workdir
    (the database too, unless `database_url` names a throwaway PostgreSQL database)."""
    # The broker is left to the embedded default, whose file lies under MEMORY_VAR_DIR.
    env = {key: value for key, value in os.environ.items() if key != "CELERY_BROKER_URL"}
    return {
        **env,
        "LOG_LEVEL": "WARNING",
        **(extra or {}),
        MARKER: str(workdir),
        "MEMORY_VAR_DIR": str(workdir),
        # Its own journal, as a fresh `make run` has: one inherited from a test run holds entries
        # keyed under that run's SECRET_KEY, which a restore here refuses (KeyMissing).
        "MEMORY_ERASURE_JOURNAL": str(workdir / "erasure-journal.sqlite3"),
        "DATABASE_URL": database_url or f"sqlite:///{workdir / 'memory.sqlite3'}",
        "CELERY_TASK_ALWAYS_EAGER": "off",
        "DJANGO_SETTINGS_MODULE": "memory_service.settings",
        "HF_HUB_OFFLINE": "1",
    }


def in_throwaway() -> bool:
    """True in the re-run, and only when the database and the broker lie in its temp folder
    or the broker is one the command started itself (a broker named in the operator's .env
    would be theirs)."""
    workdir = os.environ.get(MARKER)
    if not workdir:
        return False
    broker = settings.CELERY_BROKER_URL
    if workdir not in broker and broker != os.environ.get(OWN_BROKER):
        return False
    return engine.current().store_lies_in(Path(workdir), os.environ.get(DATABASE, ""))


@contextmanager
def postgres_database(keep: bool) -> Iterator[tuple[str, str]]:
    """A new, empty database on the MEMORY_BENCH_POSTGRES server for one run: (url, name),
    or ("", "") when the variable is not set (the throwaway stays a SQLite file)."""
    server = os.environ.get(ON_POSTGRES, "")
    if not server:
        yield "", ""
        return
    with new_database(server, keep) as made:
        yield made


def enter_rerun() -> Path | None:
    """In the re-run: its temp folder, once the database is known to lie there (else a
    CommandError), a plain `kill` runs the finally blocks that stop the server and the
    worker, and the temp database is migrated. Outside a re-run: None."""
    if not os.environ.get(MARKER):
        return None
    if not in_throwaway():
        raise CommandError("Refusing to run: the configured database is not in the throwaway folder.")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    call_command("migrate", verbosity=0)
    return Path(os.environ[MARKER])


def rerun(command: str, args: list[str], *, what: str, keep: bool, stdout, stderr, env: dict | None = None) -> None:
    """Run `manage.py command args` again as a child process whose settings point at a new
    temp folder; its standard output is copied to `stdout`, its progress goes to the terminal."""
    workdir = Path(tempfile.mkdtemp(prefix=f"{command}-"))
    argv = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), command, *args]
    failed = True
    try:
        with postgres_database(keep) as (database_url, database):
            inner = inner_env(workdir, {**(env or {}), **({DATABASE: database} if database else {})}, database_url)
            child = subprocess.run(argv, env=inner, cwd=settings.BASE_DIR, stdout=subprocess.PIPE, text=True)
        stdout.write(child.stdout, ending="")
        failed = child.returncode != 0
        if failed:
            raise CommandError(f"{what} failed (exit {child.returncode}); logs in {workdir / 'logs'}.")
    finally:
        if keep or failed:
            stderr.write(f"kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, timeout: float) -> None:
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


def stop(process: subprocess.Popen) -> None:
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
        stop(self.process)


def worker_argv(concurrency: int) -> list[str]:
    """A worker on every queue the service uses, as `make run` starts it (without beat)."""
    queues = ",".join([settings.MEMORY_QUEUE_DB, settings.MEMORY_QUEUE_LLM, settings.MEMORY_QUEUE_EMBED])
    argv = [sys.executable, "-m", "celery", "-A", "memory_service", "worker", "-Q", queues]
    argv += ["--concurrency", str(concurrency), "--loglevel", "WARNING"]
    return argv + ["--without-heartbeat", "--without-gossip", "--without-mingle"]


def gunicorn_settings(env: dict) -> dict:
    """gunicorn.conf.py's values under `env` (it reads WEB_WORKERS and friends when loaded)."""
    saved = dict(os.environ)
    os.environ.update(env)
    try:
        conf = runpy.run_path(str(Path(settings.BASE_DIR) / "gunicorn.conf.py"))
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return {name: conf[name] for name in ("workers", "threads", "worker_class", "preload_app")}


class WebServer:
    """The web server on a loopback port: gunicorn with gunicorn.conf.py, as scripts/run.sh
    starts it, or Django's runserver (the developer's server, for before/after figures)."""

    def __init__(self, kind: str, env: dict, logs: Path, name: str = "server"):
        if kind not in SERVERS:
            raise ValueError(f"unknown server {kind!r}")
        self.kind, self.env, self.logs, self.name = kind, env, logs, name
        self.port = free_port()
        self.starts = 0
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _argv(self) -> list[str]:
        bind = f"127.0.0.1:{self.port}"
        if self.kind == "gunicorn":
            gunicorn = Path(sys.executable).parent / "gunicorn"
            return [str(gunicorn), "-c", str(Path(settings.BASE_DIR) / "gunicorn.conf.py"), "--bind", bind]
        manage = str(Path(settings.BASE_DIR) / "manage.py")
        return [sys.executable, manage, "runserver", bind, "--noreload", "--skip-checks"]

    def start(self, timeout: float = 180) -> None:
        """Start the server and return once it takes requests: for gunicorn, once every worker
        has said its request threads are warm (gunicorn.conf.py), since the port opens before."""
        self.starts += 1
        self.log_path = self.logs / f"{self.name}-{self.starts}.log"
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                self._argv(), env=self.env, cwd=settings.BASE_DIR, stdout=log, stderr=subprocess.STDOUT
            )
        wait_for_port(self.port, self.process, timeout)
        if self.kind == "gunicorn":
            self._wait_for_workers(timeout)

    def _wait_for_workers(self, timeout: float) -> None:
        workers = gunicorn_settings(self.env)["workers"]
        # gunicorn.conf.py's post_worker_init logs this once a worker's request threads are warm,
        # the last thing a worker does before it accepts requests (after its model is warm).
        marker = "request threads warm"
        deadline = time.monotonic() + timeout
        assert self.process is not None
        while self.log_path.read_text(errors="replace").count(marker) < workers:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with code {self.process.returncode}; see {self.log_path}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn's {workers} workers were not ready within {timeout:.0f}s")
            time.sleep(0.2)

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)


class Stack:
    """Running web servers (each a separate host's, sharing the database) and a worker;
    `restart_web` starts the servers afresh (the worker keeps running)."""

    def __init__(self, webs: list[WebServer], worker: Worker):
        self.webs, self.worker = webs, worker

    @property
    def web(self) -> WebServer:
        return self.webs[0]

    @property
    def url(self) -> str:
        return self.web.url

    @property
    def urls(self) -> list[str]:
        return [web.url for web in self.webs]

    def restart_web(self) -> None:
        for web in self.webs:
            web.stop()
            web.start()


@contextmanager
def service(
    *, workdir: Path, concurrency: int, server: str = "runserver", env: dict | None = None, web_servers: int = 1
):
    """Yield a Stack (web servers + Celery worker) running under workdir; stop them all after."""
    env = {**os.environ, **(env or {})}
    logs = workdir / "logs"
    logs.mkdir(exist_ok=True)
    webs = [
        WebServer(server, env, logs, name=f"server{n + 1}" if web_servers > 1 else "server") for n in range(web_servers)
    ]
    worker = None
    try:
        worker = Worker(worker_argv(concurrency), env, logs / "worker.log")
        for web in webs:
            web.start(timeout=60 if server == "runserver" else 180)
        yield Stack(webs, worker)
    finally:
        if worker is not None:
            worker.stop()
        for web in webs:
            web.stop()
