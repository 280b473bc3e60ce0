"""The database layer: extension-capable driver, sqlite-vec, FTS5, PRAGMAs, checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from recall.engines.sqlite.checks import extension_errors, startup_checks

pytestmark = pytest.mark.sqlite_only

ROOT = Path(__file__).resolve().parents[2]


def _one(sql):
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()[0]


def test_django_runs_on_an_sqlite_driver_that_loads_extensions(db):
    import sqlite3

    assert sqlite3.__name__ == "sqlean"
    connection.ensure_connection()
    assert connection.connection.__class__.__module__.startswith("sqlean")
    assert _one("SELECT vec_version()").startswith("v0.1.")
    assert _one("SELECT vec_distance_cosine(vec_f32('[1,0]'), vec_f32('[0,1]'))") == pytest.approx(1.0)


def test_fts5_is_available(db):
    with connection.cursor() as cursor:
        cursor.execute("CREATE VIRTUAL TABLE temp.probe USING fts5(body, tokenize='porter unicode61')")
        cursor.execute("INSERT INTO temp.probe(body) VALUES (%s)", ["User is running marathons"])
        cursor.execute("SELECT count(*) FROM temp.probe WHERE probe MATCH %s", ['"run"'])
        assert cursor.fetchone()[0] == 1


def test_every_connection_gets_the_pragmas(db):
    assert _one("PRAGMA journal_mode") == "wal"
    assert _one("PRAGMA synchronous") == 1  # NORMAL
    assert _one("PRAGMA foreign_keys") == 1
    assert _one("PRAGMA secure_delete") == 1
    assert _one("PRAGMA busy_timeout") >= 5000


def test_the_system_checks_pass_with_extensions_loaded(db):
    assert startup_checks() == []


def test_the_system_check_names_a_missing_sqlite_vec():
    import sqlean

    bare = sqlean.connect(":memory:")  # a connection nobody loaded sqlite-vec into
    errors = extension_errors(lambda sql: bare.execute(sql).fetchone())
    assert [e.id for e in errors] == ["recall.E002"]
    assert "sqlite-vec" in errors[0].msg


def test_the_system_check_names_a_missing_fts5():
    errors = extension_errors(lambda sql: (0,) if "FTS5" in sql else ("v0.1.9",))
    assert [e.id for e in errors] == ["recall.E001"]


def test_manage_py_check_loads_everything_in_a_fresh_process(tmp_path):
    """What `make run` does at start-up, outside pytest: a new interpreter, a new database file."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite3'}",
        "MEMORY_VAR_DIR": str(tmp_path),
        "CELERY_TASK_ALWAYS_EAGER": "0",
    }
    out = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert "no issues" in out.stdout


def test_checks_never_create_a_database_file_on_a_worker_machine(tmp_path):
    """An llm-queue worker host has no database: start-up checks must not create one."""
    db_file = tmp_path / "absent.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db_file}", "MEMORY_VAR_DIR": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert not db_file.exists()
