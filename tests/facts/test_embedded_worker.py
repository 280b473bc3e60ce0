"""The embedded mode's Celery wiring: the SQLite-file broker, a real worker process
started the usual way (no -Q), after-commit enqueueing."""

from __future__ import annotations

import os
import subprocess
import time

import pytest
from django.db import transaction

from facts import bookkeeping
from facts.models import ApiKey, Fact, Turn
from recall import vec
from tests.base import ApiClient, make_tenant
from tests.integration.embedded import embedded_broker, start_worker, stop_worker, waiting_messages


@pytest.fixture
def broker(tmp_path):
    with embedded_broker(tmp_path) as path:
        yield path


@pytest.fixture
def worker(broker, tmp_path):
    proc = start_worker(tmp_path, "--pool", "solo")
    yield proc
    stop_worker(proc)


def _wait_for(predicate, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_worker_started_without_queues_runs_a_turn_end_to_end(worker, tmp_path):
    who = make_tenant("acme")
    api = ApiClient(who.raw_key)
    r = api.post("/users/u1/turns", {"session_id": "s1", "turn_id": "t1", "user_input": "I live in Lisbon."})
    assert r.status_code == 202, r.content

    # extract_turn and apply_extraction run on `db`, call_extractor on `llm`, the vector on `embed`.
    def indexed():
        pks = list(Fact.objects.filter(user__external_id="u1").values_list("pk", flat=True))
        return pks and len(vec.indexed(pks)) == len(pks)

    assert _wait_for(indexed), (tmp_path / "worker.log").read_text()[-4000:]
    assert Turn.objects.get(turn_id="t1").state == "done"
    assert [f.text for f in Fact.objects.filter(user__external_id="u1")] == ["User lives in Lisbon."]
    log = (tmp_path / "worker.log").read_text()
    assert all(f".> {queue} " in log for queue in ("db", "llm", "embed")), log[-4000:]


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_on_the_embedded_broker_runs_tasks_enqueued_after_commit(worker):
    who = make_tenant("acme")
    key = ApiKey.objects.get(tenant=who.tenant)
    assert key.last_used_at is None
    r = ApiClient(who.raw_key).post("/users/u1/facts", {"text": "User likes tea."})
    assert r.status_code == 201
    assert _wait_for(lambda: ApiKey.objects.get(pk=key.pk).last_used_at is not None), "worker never ran the task"


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_transaction_enqueues_nothing(broker):
    who = make_tenant("acme")
    key = ApiKey.objects.get(tenant=who.tenant)
    with pytest.raises(RuntimeError), transaction.atomic():
        bookkeeping.note_key_used(key)
        raise RuntimeError("roll back")
    assert waiting_messages() == 0
    bookkeeping._last_touch.clear()
    with transaction.atomic():
        bookkeeping.note_key_used(key)
        assert waiting_messages() == 0  # not before commit
    assert waiting_messages() == 1


def test_key_use_is_recorded_at_most_once_a_minute(api, alice, django_capture_on_commit_callbacks):
    bookkeeping._last_touch.clear()
    with django_capture_on_commit_callbacks(execute=True):
        api.get("/users/nobody/facts")
    first = ApiKey.objects.get(tenant=alice.tenant).last_used_at
    assert first is not None
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        api.get("/users/nobody/facts")
    assert callbacks == []
    assert ApiKey.objects.get(tenant=alice.tenant).last_used_at == first


def test_an_older_delivery_never_moves_last_used_back(alice):
    key = ApiKey.objects.get(tenant=alice.tenant)
    bookkeeping.touch_api_key(key.pk, "2026-05-02T10:00:00+00:00")
    bookkeeping.touch_api_key(key.pk, "2026-05-01T10:00:00+00:00")
    key.refresh_from_db()
    assert key.last_used_at.isoformat() == "2026-05-02T10:00:00+00:00"


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
@pytest.mark.sqlite_only  # a worker process's model loading: the same on either engine
def test_a_prefork_worker_loads_the_embedding_model_once_before_its_pool_forks(broker, tmp_path):
    # One intra-op thread, the default: ONNX Runtime's thread pool cannot cross a fork,
    # so with more threads each pool process opens a session of its own.
    proc = start_worker(tmp_path, "--concurrency", "2", embedding_threads=1)
    try:
        who = make_tenant("acme")
        r = ApiClient(who.raw_key).post("/users/u1/facts", {"text": "User keeps bees."})
        assert r.status_code == 201, r.content
        fact = Fact.objects.get(user__external_id="u1")
        assert _wait_for(lambda: len(vec.indexed([fact.pk])) == 1), (tmp_path / "worker.log").read_text()[-4000:]
        # The worker and its pool run MEMORY_WORKER_NICE (10) below this process: the web
        # server's requests come first on a shared machine.
        pool = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
        expected = min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10)
        assert len(pool) >= 2
        assert {os.getpriority(os.PRIO_PROCESS, int(pid)) for pid in [proc.pid, *pool]} == {expected}
    finally:
        stop_worker(proc)
    log = (tmp_path / "worker.log").read_text()
    assert log.count("loaded before the pool forks") == 1, log[-4000:]
    assert log.count("embedding model warm") == 2, log[-4000:]  # each pool process warmed its threads
    # The master's load is the only one: no pool process loaded a copy of its own.
    assert log.count("Loading embedding model all-MiniLM-L6-v2") == 1, log[-4000:]


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
@pytest.mark.sqlite_only  # a worker process's model loading: the same on either engine
def test_a_worker_that_only_calls_the_llm_does_not_load_the_embedding_model(broker, tmp_path):
    proc = start_worker(tmp_path, "-Q", "llm", "--concurrency", "1")
    try:
        assert _wait_for(lambda: "ready" in (tmp_path / "worker.log").read_text()), "the worker never started"
    finally:
        stop_worker(proc)
    assert "loaded before the pool forks" not in (tmp_path / "worker.log").read_text()
