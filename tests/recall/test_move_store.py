"""manage.py move_store: the SQLite store into an empty PostgreSQL database (a private pgserver)."""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import psycopg
import pytest

from facts import services
from facts.models import Fact, Turn
from recall import indexer, vec
from tests.base import database_url
from tests.integration.stack import ROOT

pytestmark = [pytest.mark.sqlite_only, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def postgres():
    os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="runtime-"))
    import pgserver

    server = pgserver.get_server(tempfile.mkdtemp(prefix="move-store-pg-"), cleanup_mode="stop")
    try:
        yield server
    finally:
        server.cleanup()
        # Stopped: its exit handler would only log, after pytest has closed the streams.
        atexit.unregister(server._cleanup)


def _empty_database(server, name: str) -> str:
    uri = server.get_uri()  # postgresql://postgres:@/postgres?host=<folder>
    host = uri.split("host=", 1)[1]
    with psycopg.connect(dbname="postgres", user="postgres", host=host, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"postgresql://postgres:@/{name}?host={host}"


def _move(target: str, *extra: str) -> subprocess.CompletedProcess:
    """The command as an operator runs it, on the test database (committed: transaction=True)."""
    env = {**os.environ, "DATABASE_URL": database_url()}
    command = [sys.executable, "manage.py", "move_store", "--to", target, *extra]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def _seed(alice) -> None:
    for name, texts in {"ana": ["User lives in Porto.", "User keeps bees."], "ben": ["User plays the cello."]}.items():
        user = services.memory_user_get_or_create(tenant=alice.tenant, user_id=name)
        for text in texts:
            services.fact_store(user=user, text=text, actor=services.SYSTEM, entities=["Porto"])
        Turn.objects.create(
            tenant=alice.tenant, user=user, session_id="s", turn_id="t1", user_input=f"I am {name}.", state="done"
        )
    indexer.index_items(
        list(Fact.objects.values_list("pk", flat=True)), list(Turn.objects.values_list("pk", flat=True))
    )


def test_it_moves_every_row_rebuilds_the_index_and_recalls_the_same(alice, postgres):
    _seed(alice)
    # One fact carries another's vector: a copy keeps it, re-embedding would not.
    bees, cello = (Fact.objects.get(text=t).pk for t in ("User keeps bees.", "User plays the cello."))
    model, digest = vec.indexed([bees])[bees]
    borrowed = vec.vectors([cello])[cello]
    vec.upsert([(bees, Fact.objects.get(pk=bees).user_id, model, digest, vec.to_blob(borrowed))])
    target = _empty_database(postgres, "moved")
    moved = _move(target, "--sample", "3")
    report = moved.stdout
    assert moved.returncode == 0, moved.stdout + moved.stderr[-3000:]
    assert "DIFFERENT" not in report, report
    assert "facts.Fact" in report and "source=3" in report
    assert "vectors loaded: 5" in report, report  # 3 facts, 2 episodes
    assert "found by their own text in the top 10: source 3, target 3" in report, report
    assert "top-10 overlap 1.000" in report, report
    host = target.split("host=", 1)[1]
    with psycopg.connect(dbname="moved", user="postgres", host=host) as conn:
        [(text,)] = conn.execute("SELECT embedding::text FROM recall_vector WHERE fact_id = %s", [bees]).fetchall()
    assert np.allclose(np.asarray(json.loads(text), dtype=np.float32), borrowed, atol=1e-6)


def test_it_refuses_a_target_that_is_not_empty(alice, postgres):
    target = _empty_database(postgres, "occupied")
    host = target.split("host=", 1)[1]
    with psycopg.connect(dbname="occupied", user="postgres", host=host, autocommit=True) as conn:
        conn.execute("CREATE TABLE something_else (id int)")
    refused = _move(target)
    assert refused.returncode != 0 and "not empty" in refused.stderr, refused.stderr[-2000:]


def test_it_refuses_a_target_that_is_not_postgresql(alice, tmp_path):
    refused = _move(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    assert refused.returncode != 0 and "postgresql://" in refused.stderr, refused.stderr[-2000:]
