"""Several OS processes writing to one user at once lose nothing and never see 'database is locked'."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from facts.models import Fact, FactHistory, MemoryUser, Turn
from facts.services.turns import turn_post
from tests.base import database_url, make_tenant
from tests.threads import at_once

ROOT = Path(__file__).resolve().parents[2]
WRITERS = 4
FACTS_EACH = 250


@pytest.mark.django_db(transaction=True)
def test_parallel_writer_processes_lose_nothing(tmp_path):
    tenant = make_tenant("busy").tenant
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "MEMORY_VAR_DIR": str(tmp_path),
        # A broker folder with no worker: after-commit tasks queue as files, like a web process.
        "CELERY_BROKER_URL": "filesystem://",
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "PYTHONPATH": str(ROOT),
    }
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                str(Path(__file__).with_name("concurrent_writer.py")),
                str(n),
                str(FACTS_EACH),
                str(tenant.pk),
                str(tmp_path),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(WRITERS)
    ]
    deadline = time.monotonic() + 120
    while len(list(tmp_path.glob("ready-*"))) < WRITERS and time.monotonic() < deadline:
        time.sleep(0.05)
    (tmp_path / "go").touch()
    outputs = [p.communicate(timeout=300) for p in procs]
    for proc, (_out, err) in zip(procs, outputs, strict=True):
        assert "database is locked" not in err
        assert proc.returncode == 0, err[-2000:]
    assert MemoryUser.objects.filter(tenant=tenant).count() == 1
    facts = Fact.objects.filter(tenant=tenant)
    assert facts.count() == WRITERS * FACTS_EACH
    assert facts.values("text").distinct().count() == WRITERS * FACTS_EACH
    assert FactHistory.objects.filter(tenant=tenant, action="insert").count() == WRITERS * FACTS_EACH


@pytest.mark.django_db(transaction=True)
def test_first_turns_of_a_new_user_posted_at_once_make_one_user_and_store_each_turn_once():
    """turn_post creates the user inside its short write transaction; posts racing on the
    new user, or on one turn id, read again instead of failing (facts/services/turns.py)."""
    tenant = make_tenant("racing").tenant
    turn_ids = ["t1", "t2", "t3", "t4", "same", "same", "same", "same"]
    start = threading.Barrier(len(turn_ids), timeout=30)

    def post(turn_id: str) -> tuple[str, bool]:
        start.wait()
        turn, created = turn_post(
            tenant=tenant, user_id="new-user", session_id="s1", turn_id=turn_id, user_input="I keep bees."
        )
        return turn.turn_id, created

    outcomes = at_once(post, [(turn_id,) for turn_id in turn_ids])
    assert not [o for o in outcomes if isinstance(o, BaseException)], outcomes
    assert MemoryUser.objects.filter(tenant=tenant, external_id="new-user").count() == 1
    assert sorted(Turn.objects.filter(tenant=tenant).values_list("turn_id", flat=True)) == [
        "same",
        "t1",
        "t2",
        "t3",
        "t4",
    ]
    assert sorted(created for turn_id, created in outcomes if turn_id == "same") == [False, False, False, True]
