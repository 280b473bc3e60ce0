"""Warm a web worker's request threads before the worker takes its first request.

gunicorn's gthread worker serves requests on a pool of threads that it starts one
by one, as requests come in; each thread opens its own SQLite connection (Django's
connections are per thread) and compiles each statement on that connection the
first time it runs. On a fresh server, that made the first recall about 2.5 times
a steady one (docs/measurements.md §9). `warm_pool` starts every thread of the pool
at once and has each open its connection and run the statements of a recall and of
a request's authentication, so that the first request finds them ready.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Executor

log = logging.getLogger(__name__)

WARM_QUERY = "What did I say about the trip last week?"


def warm_pool(pool: Executor, threads: int, timeout: float = 30.0) -> int:
    """Run `warm_thread` once on each of the pool's `threads` threads; returns how many ran.

    A ThreadPoolExecutor starts a new thread for a submitted job only while none of
    its threads is idle, so every job waits at a barrier until all have started: the
    pool then holds `threads` threads, each warmed once.
    """
    barrier = threading.Barrier(threads, timeout=timeout)
    jobs = [pool.submit(_warm_at, barrier) for _ in range(threads)]
    warmed = 0
    for job in jobs:
        try:
            job.result(timeout=timeout)
            warmed += 1
        except Exception as exc:  # a cold thread is slower, never wrong: log and serve
            log.warning("Could not warm a request thread: %s", exc)
    return warmed


def _warm_at(barrier: threading.Barrier) -> None:
    barrier.wait()
    warm_thread()


def warm_thread() -> None:
    """Open this thread's database connection and run what a recall request reads, for a user
    that cannot exist (pk 0), so nothing is found and nothing is written."""
    from django.db import connection

    from facts.models import ApiKey, MemoryUser
    from memory_service import celery_app
    from recall.services import recall

    connection.ensure_connection()
    celery_app.backend  # noqa: B018 - Celery keeps one result backend per thread, made on first use
    ApiKey.objects.for_key("warm-up: no such key")  # the statement authentication runs
    nobody = MemoryUser(pk=0, external_id="")
    recall(user=nobody, query=WARM_QUERY, k=10, log=False, sources=("facts", "episodes"))
