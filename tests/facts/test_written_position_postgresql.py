"""Recording where a write ends in the WAL (facts/replicas.py, read your own writes) cannot
deadlock: in the many-hosts drill several web threads each recorded the position of 3-4 users
in one UPDATE after their commits, PostgreSQL took the rows in differing orders, and 13
deadlocks in two seconds failed a write with a 500 (docs/measurements.md §20)."""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connection, connections, transaction

from facts import replicas
from facts.models import MemoryUser
from tests.base import make_tenant

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 8
ROUNDS = 150


def _writer(user_ids: list[int], seed: int, failures: list[BaseException]) -> None:
    """Commits that each note several users' writes, in a shuffled order, as a web thread whose
    earlier transactions noted other users does."""
    rng = random.Random(seed)
    try:
        for _ in range(ROUNDS):
            with transaction.atomic():
                # A writer holds one user's row until it commits (facts/services/users.py lock_user).
                MemoryUser.objects.select_for_update().filter(pk=rng.choice(user_ids)).exists()
                replicas.note_write(rng.sample(user_ids, k=rng.randint(1, len(user_ids))))
    except BaseException as exc:  # noqa: BLE001 (reported by the test's thread)
        failures.append(exc)
    finally:
        connections.close_all()


def test_positions_recorded_by_many_threads_at_once_never_deadlock(settings, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("row locks and the WAL position are PostgreSQL's")
    settings.MEMORY_DATABASE_REPLICAS = ["replica0"]  # recording runs; nothing reads from it here
    tenant = make_tenant("acme").tenant
    user_ids = [MemoryUser.objects.create(tenant=tenant, external_id=f"u{i}").pk for i in range(4)]
    failed_records: list[str] = []
    monkeypatch.setattr(replicas.log, "exception", lambda message, *args: failed_records.append(message % args))
    failures: list[BaseException] = []

    threads = [threading.Thread(target=_writer, args=(user_ids, seed, failures)) for seed in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert failures == [] and failed_records == []
    assert all(position > 0 for position in MemoryUser.objects.values_list("written_lsn", flat=True))
