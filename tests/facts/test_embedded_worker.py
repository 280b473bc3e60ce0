"""The embedded mode's Celery wiring: filesystem broker, a real worker process, after-commit enqueueing."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection, transaction

from facts import bookkeeping
from facts.models import ApiKey
from tests.base import ApiClient, make_tenant

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def worker(broker, tmp_path):
    # The worker reads the broker folders from settings: MEMORY_VAR_DIR decides them.
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{connection.settings_dict['NAME']}",
        "MEMORY_VAR_DIR": str(tmp_path),
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "CELERY_BROKER_URL": "filesystem://",
    }
    proc = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("celery")),
            "-A",
            "memory_service",
            "worker",
            "-Q",
            "db,llm,embed",
            "--pool",
            "solo",
            "--loglevel",
            "WARNING",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    yield proc
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


def _wait_for(predicate, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


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
    assert list(broker["queue"].iterdir()) == []
    bookkeeping._last_touch.clear()
    with transaction.atomic():
        bookkeeping.note_key_used(key)
        assert list(broker["queue"].iterdir()) == []  # not before commit
    assert len(list(broker["queue"].iterdir())) == 1


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
