from __future__ import annotations

import gc
import logging
import os
import sys
from typing import TYPE_CHECKING, Any

from celery import Celery, signals

from core.queues import USERS_HEADER, about_users, consumes, note_consumed

if TYPE_CHECKING:
    from recall.embeddings import Embedder

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_service.settings")

logger = logging.getLogger(__name__)

__all__ = ["USERS_HEADER", "about_users", "app", "consumes"]

app = Celery("memory_service")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Celery's Django fixup closes every database connection before and after each task unless this
# is set: on PostgreSQL a new server process per task, whose catalog caches for the partitioned
# tables cost the primary about 70 ms of CPU each, most of its CPU in the many-hosts drill
# (docs/measurements.md §20, "Where the primary's CPU went"). It never closes them here; the
# handler below closes them as Django does around a web request instead.
app.conf["CELERY_DB_REUSE_MAX"] = sys.maxsize
app.autodiscover_tasks()


@signals.task_prerun.connect(dispatch_uid="memory_service.old_connections_before_task")
@signals.task_postrun.connect(dispatch_uid="memory_service.old_connections_after_task")
def _close_old_connections(sender: Any = None, **kwargs: Any) -> None:
    """Close a connection that broke (the primary restarted) or outlived DATABASE_CONN_MAX_AGE;
    keep the others for the next task. Not for a task run eagerly inside a request or a test."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()


# Celery's Django fixup runs the system checks when a worker starts but ignores what they
# return, so a worker with a malformed setting (memory_service/settings_checks.py) started and
# served. Connected before the handlers below, so the worker stops before it loads the model.
@signals.worker_init.connect(dispatch_uid="memory_service.refuse_failed_checks")
def _refuse_failed_checks(**kwargs: Any) -> None:
    import django
    from django.apps import apps

    from memory_service.settings_checks import startup_report

    if not apps.ready:  # Celery's fixup sets Django up in its own worker_init handler
        django.setup()
    report = startup_report()
    if report is not None:
        # SystemExit, because Celery logs and swallows any Exception a signal handler raises.
        print(f"{report}\nRefusing to start.", file=sys.stderr, flush=True)
        raise SystemExit(1)


# What senders read about the queues (the users header, the queues this worker consumes) is
# in core/queues.py, below the apps; named here too for the callers of before.
@signals.worker_init.connect(dispatch_uid="memory_service.note_consumed_queues")
def _note_consumed_queues(**kwargs: Any) -> None:
    note_consumed(app.amqp.queues.consume_from or app.amqp.queues)


# SQLite connections must never cross a fork: a child that uses or closes its
# parent's connection can corrupt the database file (its locks belong to the
# parent process, and a close may checkpoint and truncate the WAL). The master
# closes its connections before the pool forks, and a child keeps any it still
# inherited alive but unused, so closing them never runs in the child.
_inherited_connections: list[object] = []


@signals.worker_init.connect(dispatch_uid="memory_service.close_before_fork")
def _close_connections_before_fork(**kwargs: Any) -> None:
    from django.db import connections

    connections.close_all()


@signals.worker_process_init.connect(dispatch_uid="memory_service.drop_inherited_connections")
def _drop_inherited_connections(**kwargs: Any) -> None:
    from django.db import connections

    for conn in connections.all(initialized_only=True):
        if conn.connection is not None:
            _inherited_connections.append(conn.connection)
            conn.connection = None


@signals.worker_init.connect(dispatch_uid="memory_service.lower_priority")
def _lower_priority(**kwargs: Any) -> None:
    """Background work yields the CPU to the web server's requests where both share a machine
    (`make run`, the database host); the pool processes inherit the worker's niceness. On
    the 2-core machine its effect on `bench_api`'s post-turn figures was within their noise
    (docs/measurements.md §11): there the worker and the API meet on SQLite's write lock."""
    from django.conf import settings

    if settings.MEMORY_WORKER_NICE > 0:
        os.nice(settings.MEMORY_WORKER_NICE)


# The local embedding model is loaded once in the master, before the pool forks, so
# the pool processes share its memory and no task pays for the load (each used to
# load its own copy on its first embedding: seconds of that task, and one more copy
# of the weights per process).
_model_in_master = False


def _worker_embedder(queues: set[str]) -> Embedder:
    """The model this worker embeds with. With the `db` queue it has the store: the model recall
    serves (after a live switch, not the settings' one). Without it (an `embed` worker of the
    many-hosts layout, no database) the model its settings name, which is what it computes
    with (recall.index.compute_vectors), told without reading the store's switch row."""
    from django.conf import settings

    from recall.embeddings import embedder_for, get_embedder
    from recall.slots import configured_model

    if settings.MEMORY_QUEUE_DB in queues:
        return get_embedder()
    return embedder_for(configured_model())


@signals.worker_init.connect(dispatch_uid="memory_service.load_model_before_fork")
def _load_model_before_fork(sender: object = None, **kwargs: Any) -> None:
    global _model_in_master
    from celery.concurrency import get_implementation
    from celery.concurrency.prefork import TaskPool
    from django.conf import settings
    from django.db import connections

    queues = set(app.amqp.queues.consume_from)
    if not queues & {settings.MEMORY_QUEUE_DB, settings.MEMORY_QUEUE_EMBED}:
        # An `llm` worker never embeds; asking which model is live would read the store,
        # which such a worker may not have (another machine, no DATABASE_URL).
        return
    embedder = _worker_embedder(queues)
    # Which model is live came from the store: the master closes that connection again, or it
    # would stay open, idle, for the worker's life and cross the fork (see above).
    connections.close_all()
    pool = get_implementation(getattr(sender, "pool_cls", None) or app.conf.worker_pool)
    if embedder.provider == "local" and issubclass(pool, TaskPool):
        embedder.load_before_fork()
        _model_in_master = True
        logger.info("Embedding model %s loaded before the pool forks", embedder.model_name)
        # As in gunicorn.conf.py: what the master holds goes to the collector's permanent
        # generation, so a pool process's first full collection does not copy every shared page.
        gc.collect()
        gc.freeze()


@signals.worker_process_init.connect(dispatch_uid="memory_service.warm_model_after_fork")
def _warm_model_after_fork(**kwargs: Any) -> None:
    embedder = _worker_embedder(set(app.amqp.queues.consume_from)) if _model_in_master else None
    # Always a local model when the master loaded one; the test tells the type checker so.
    if embedder is not None and embedder.provider == "local":
        embedder.warm_after_fork()
        logger.info("Pool process %d: embedding model warm", os.getpid())


# A worker killed with SIGKILL (the OOM killer, a test) must not leave its children running:
# its embedded beat process (`-B`, as `make run` starts it) stayed alive, still sending the
# periodic tasks, and one such process was found 12 minutes after the test suite had ended.
# Each child (pool process or embedded beat) watches its parent and exits once it is gone;
# os._exit, because a forked child that ran the model can hang in its exit handlers.
ORPHAN_CHECK_SECONDS = 1.0


def _exit_when_orphaned(parent: int) -> None:
    import time

    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK_SECONDS)
    logger.warning("Process %d: its worker %d is gone; exiting.", os.getpid(), parent)
    os._exit(1)


@signals.worker_process_init.connect(dispatch_uid="memory_service.pool_exits_with_the_worker")
@signals.beat_embedded_init.connect(dispatch_uid="memory_service.beat_exits_with_the_worker")
def _watch_the_worker(**kwargs: Any) -> None:
    import threading

    watcher = threading.Thread(target=_exit_when_orphaned, args=(os.getppid(),), daemon=True, name="orphan-watch")
    watcher.start()
