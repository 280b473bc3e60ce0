"""The SQLite build: which one is loaded, refusing known-bad ones, and no deadlock on open/close."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db.backends.sqlite3.base import Database
from django.test import Client

from core.checks import check_sqlite_build, loaded_sqlite, sqlite_build_errors

ROOT = Path(__file__).resolve().parents[2]
STRESS = Path(__file__).with_name("open_close_stress.py")


def test_it_runs_on_sqlean_and_an_sqlite_without_the_open_close_deadlock():
    assert Database.__name__ == "sqlean.dbapi2"
    assert Database.sqlite_version_info >= (3, 50, 4)
    assert check_sqlite_build() == []


@pytest.mark.parametrize("version", [(3, 51, 0), (3, 51, 1)])
def test_the_check_refuses_the_sqlite_versions_that_deadlock(version):
    errors = sqlite_build_errors(version, "SQLite 3.51.x (pysqlite3)")
    assert [e.id for e in errors] == ["memory_service.E001"]
    assert "SQLite 3.51.x (pysqlite3)" in errors[0].msg
    assert "deadlock" in errors[0].msg


@pytest.mark.parametrize("version", [(3, 50, 4), (3, 51, 2), (3, 53, 4)])
def test_the_check_accepts_sqlite_versions_without_the_bug(version):
    assert sqlite_build_errors(version, "SQLite") == []


def test_health_names_the_loaded_sqlite(alice):
    body = Client().get("/api/v1/health", HTTP_AUTHORIZATION=f"Bearer {alice.raw_key}").json()
    assert body["sqlite"] == loaded_sqlite()
    assert body["sqlite"].startswith(f"SQLite {Database.sqlite_version} (sqlean)")


@pytest.mark.slow
def test_threads_opening_and_closing_connections_beside_writers_finish(tmp_path):
    """The pattern that froze the web server on SQLite 3.51.1, run where a hang fails instead of blocking."""
    db_path = tmp_path / "stress.sqlite3"
    setup = Database.connect(db_path)
    setup.execute("PRAGMA journal_mode=WAL")
    setup.execute("CREATE TABLE probe(n)")
    setup.commit()
    setup.close()
    env = {**os.environ, "MEMORY_VAR_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, str(STRESS)]
    writers = [subprocess.Popen([*command, "writer", str(db_path)], cwd=ROOT, env=env) for _ in range(2)]
    try:
        reader = subprocess.run(
            [*command, "reader", str(db_path), "10", "4"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("connections opened and closed from several threads deadlocked")
    finally:
        for writer in writers:
            writer.kill()
            writer.wait()
    assert reader.returncode == 0, reader.stderr[-2000:]
    assert int(reader.stdout.split()[-1]) > 200
    check = Database.connect(db_path)
    assert check.execute("SELECT count(*) FROM probe").fetchone()[0] > 0
    check.close()
