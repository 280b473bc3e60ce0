"""Warming a web worker's request threads (memory_service.warmup, gunicorn.conf.py post_worker_init)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from facts.models import ApiKey, Fact, MemoryUser
from memory_service.warmup import warm_pool, warm_thread
from recall.models import RecallLog

pytestmark = pytest.mark.django_db(transaction=True)


def _on_every_thread(pool: ThreadPoolExecutor, threads: int, job):
    """Run `job` once on each of the pool's threads at once (a barrier keeps them all busy)."""
    barrier = threading.Barrier(threads, timeout=30)

    def at_barrier():
        barrier.wait()
        return job()

    return [future.result(timeout=60) for future in [pool.submit(at_barrier) for _ in range(threads)]]


def test_every_thread_of_the_pool_has_its_connection_open_before_a_request(alice):
    with ThreadPoolExecutor(max_workers=3) as pool:
        assert warm_pool(pool, 3) == 3
        seen = _on_every_thread(pool, 3, lambda: (threading.get_ident(), connection.connection is not None))
        _on_every_thread(pool, 3, lambda: connection.close())
    assert len({ident for ident, _ in seen}) == 3
    assert all(opened for _, opened in seen)


def test_warming_a_thread_reads_and_writes_nothing(alice, api):
    assert api.post("/users/u1/facts", {"text": "User keeps bees."}).status_code == 201
    before = [model.objects.count() for model in (ApiKey, Fact, MemoryUser, RecallLog)]
    warm_thread()
    assert [model.objects.count() for model in (ApiKey, Fact, MemoryUser, RecallLog)] == before
