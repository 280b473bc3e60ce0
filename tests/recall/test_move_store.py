"""manage.py move_store: the SQLite store into an empty PostgreSQL database (a private pgserver).

The command must be the store's only user (core/db/in_use.py): this test process
has the file open, so it lets go first, as stopping the service would, unless a test is
about a store still in use."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import psycopg
import pytest
from django.db import connection

from core.db import in_use
from core.db.postgresql_urls import connect_kwargs, database_config
from facts import services
from facts.models import Fact, Turn
from recall import indexer, vec
from tests.base import database_url, private_postgres
from tests.integration.stack import ROOT

pytestmark = [pytest.mark.sqlite_only, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def postgres():
    with private_postgres("move-store-pg-") as server:
        yield server


def _empty_database(server, name: str) -> str:
    uri = server.get_uri()  # postgresql://postgres:@/postgres?host=<folder>
    host = uri.split("host=", 1)[1]
    with psycopg.connect(dbname="postgres", user="postgres", host=host, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"postgresql://postgres:@/{name}?host={host}"


def _tables(target: str) -> list[str]:
    with psycopg.connect(**connect_kwargs(database_config(target))) as conn:
        rows = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'").fetchall()
    return [table for (table,) in rows]


def _move(target: str | None, *extra: str, served: bool = False, **env_vars: str) -> subprocess.CompletedProcess:
    """The command as an operator runs it, on the test database (committed: transaction=True);
    --to `target` unless None (the target in MEMORY_MOVE_TO_URL of `env_vars` then)."""
    if served:
        connection.ensure_connection()  # this process is a server with the store open
    else:
        # What stopping the service does: no connection of this process stays on the file.
        connection.close()
        in_use.release(connection.settings_dict["NAME"])
    env = {name: value for name, value in os.environ.items() if name != "MEMORY_MOVE_TO_URL"}
    env |= {"DATABASE_URL": database_url(), **env_vars}
    to = [] if target is None else ["--to", target]
    command = [sys.executable, "manage.py", "move_store", *to, *extra]
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
    # The URL from the environment, not the command line (`ps` shows that to every user).
    moved = _move(None, "--sample", "3", MEMORY_MOVE_TO_URL=target)
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


def test_it_refuses_a_store_in_use_and_writes_nothing_to_the_target(alice, postgres):
    _seed(alice)
    target = _empty_database(postgres, "while-served")
    refused = _move(target, served=True)
    assert refused.returncode != 0, refused.stdout + refused.stderr[-2000:]
    assert "in use" in refused.stderr and "Nothing was copied" in refused.stderr, refused.stderr[-2000:]
    assert _tables(target) == []


def test_it_refuses_a_password_on_its_command_line_and_does_not_repeat_it(alice, postgres):
    target = _empty_database(postgres, "with-password").replace("postgres:@", "postgres:hunter2@")
    refused = _move(target)
    assert refused.returncode != 0 and "MEMORY_MOVE_TO_URL" in refused.stderr, refused.stderr[-2000:]
    assert "hunter2" not in refused.stdout + refused.stderr
    assert _tables(target) == []


def test_without_a_target_it_names_the_variable_to_set(alice):
    refused = _move(None)
    assert refused.returncode != 0 and "MEMORY_MOVE_TO_URL=postgresql://" in refused.stderr, refused.stderr[-2000:]
