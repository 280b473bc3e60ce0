"""A real worker process on the embedded broker (a SQLite file in a temp folder), for tests
that run in the test database's process."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from kombu import pools as kombu_pools
from kombu.transport import sqlalchemy as kombu_sqla
from sqlalchemy import func, select

from core.broker import make_engine
from facts import bookkeeping
from memory_service.celery import app as celery_app
from tests.base import database_url

ROOT = Path(__file__).resolve().parents[2]


def embedded_broker_options(tmp_path: Path) -> dict:
    """Celery settings of the embedded broker on a fresh file in tmp_path, as settings.py builds them
    for MEMORY_VAR_DIR=tmp_path."""
    return {
        "broker_url": f"sqlite:///{tmp_path / 'broker.sqlite3'}",
        "broker_transport": "core.broker:Transport",
        "broker_transport_options": {**settings.CELERY_BROKER_TRANSPORT_OPTIONS, "polling_interval": 0.05},
    }


@contextlib.contextmanager
def embedded_broker(tmp_path: Path):
    """Point this process's Celery app at a fresh embedded broker file, not eager."""
    keys = ("task_always_eager", "broker_url", "broker_transport", "broker_transport_options")
    saved = {key: celery_app.conf[key] for key in keys}
    celery_app.conf.update(task_always_eager=False, **embedded_broker_options(tmp_path))
    bookkeeping._last_touch.clear()
    _drop_broker_connections()
    try:
        yield tmp_path / "broker.sqlite3"
    finally:
        celery_app.conf.update(**saved)
        _drop_broker_connections()


def _drop_broker_connections():
    # Connections to the temp broker are pooled by kombu and Celery; drop them
    # so the next test builds fresh ones from the restored configuration.
    kombu_pools.reset()
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


def stored_messages(path: Path) -> int:
    """Every message in the broker file, waiting or delivered and not yet acknowledged."""
    table = kombu_sqla.metadata.tables["kombu_message"]
    with make_engine(f"sqlite:///{path}").connect() as conn:
        return conn.execute(select(func.count()).select_from(table)).scalar_one()


def waiting_messages(queue: str = "db") -> int:
    with celery_app.connection_for_write() as conn:
        return conn.default_channel.queue_declare(queue=queue, passive=True).message_count


def start_worker(tmp_path: Path, *extra: str, embedding_threads: int = 2) -> subprocess.Popen:
    """`celery -A memory_service worker` as a user starts it: no -Q; the broker file comes
    from MEMORY_VAR_DIR through settings."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "MEMORY_VAR_DIR": str(tmp_path),
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "MEMORY_BROKER_POLL_SECONDS": "0.05",
        "MEMORY_EMBEDDING_THREADS": str(embedding_threads),
    }
    env.pop("CELERY_BROKER_URL", None)
    env.pop("OPENAI_API_KEY", None)
    return subprocess.Popen(
        [str(Path(sys.executable).with_name("celery")), "-A", "memory_service", "worker", "--loglevel", "INFO", *extra],
        cwd=ROOT,
        env=env,
        stdout=(tmp_path / "worker.log").open("ab"),
        stderr=subprocess.STDOUT,
    )


def stop_worker(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)
