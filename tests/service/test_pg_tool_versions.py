"""`manage.py check` on PostgreSQL says when MEMORY_PG_DUMP / MEMORY_PG_RESTORE cannot back up the server
(core/db/pg_tools.py, core/checks.py): Debian's default pg_dump 15 failed every
backup of a PostgreSQL 16 server with a message that named neither setting.

Against a private PostgreSQL 16 (pgserver), whatever engine the test run is on."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from core.db import pg_tools
from tests.base import private_postgres
from tests.integration.stack import BIN, ROOT, clean_env

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def postgres():
    with private_postgres("pg-tools-") as server:
        yield server


@pytest.fixture(scope="module")
def real_bin():
    from pgserver._commands import POSTGRES_BIN_PATH

    return Path(POSTGRES_BIN_PATH)


def _program(folder: Path, name: str, prints: str) -> str:
    path = folder / name
    path.write_text(f"#!/bin/sh\necho '{prints}'\n")
    path.chmod(0o755)
    return str(path)


def _check(server, tmp_path: Path, dump: str, restore: str, *extra: str) -> subprocess.CompletedProcess:
    env = clean_env(
        MEMORY_VAR_DIR=str(tmp_path), DATABASE_URL=server.get_uri(), MEMORY_PG_DUMP=dump, MEMORY_PG_RESTORE=restore
    )
    command = [str(BIN / "python"), "manage.py", "check", *extra]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_a_pg_dump_older_than_the_server_is_named_by_its_setting(postgres, real_bin, tmp_path):
    old = _program(tmp_path, "pg_dump", "pg_dump (PostgreSQL) 15.8 (Debian 15.8-0+deb12u1)")
    done = _check(postgres, tmp_path, old, str(real_bin / "pg_restore"), "--fail-level", "WARNING")
    report = done.stdout + done.stderr
    assert done.returncode != 0, report
    assert "memory_service.W002" in report, report
    assert f"MEMORY_PG_DUMP={old} is PostgreSQL 15's, older than this server (PostgreSQL 16)" in report, report
    assert "MEMORY_PG_RESTORE" not in report.split("HINT")[0], report


def test_a_missing_pg_restore_is_named_by_its_setting(postgres, real_bin, tmp_path):
    missing = str(tmp_path / "no-such-pg_restore")
    done = _check(postgres, tmp_path, str(real_bin / "pg_dump"), missing)
    report = done.stdout + done.stderr
    assert f"MEMORY_PG_RESTORE={missing} cannot be run" in report, report
    assert "MEMORY_PG_DUMP=" not in report, report


def test_the_servers_own_programs_pass(postgres, real_bin, tmp_path):
    done = _check(postgres, tmp_path, str(real_bin / "pg_dump"), str(real_bin / "pg_restore"))
    report = done.stdout + done.stderr
    assert done.returncode == 0, report
    assert "W002" not in report and "MEMORY_PG_" not in report, report


@pytest.mark.parametrize(
    ("prints", "problem"),
    [
        ("pg_dump (PostgreSQL) 17.2", None),
        ("pg_dump (PostgreSQL) 16.4", None),
        ("pg_dump (PostgreSQL) 15.8", "is PostgreSQL 15's, older than this server (PostgreSQL 16)"),
        ("pg_dump (PostgreSQL) 9.6.24", "is PostgreSQL 9's, older than this server (PostgreSQL 16)"),
        ("something else", "did not print its version"),
    ],
)
def test_the_version_a_program_prints_is_compared_with_the_servers_major(tmp_path, prints, problem):
    program = pg_tools.Program("MEMORY_PG_DUMP", _program(tmp_path, "pg_dump", prints))
    found = pg_tools.problem(program, pg_tools.server_major(160004))
    if problem is None:
        assert found is None
    else:
        assert found is not None and found.startswith(f"MEMORY_PG_DUMP={program.path} {problem}")


def test_a_failure_note_names_the_setting_and_the_reason(tmp_path, settings):
    settings.MEMORY_PG_DUMP = _program(tmp_path, "pg_dump", "pg_dump (PostgreSQL) 15.8")
    settings.MEMORY_PG_RESTORE = _program(tmp_path, "pg_restore", "pg_restore (PostgreSQL) 16.4")
    note = pg_tools.failure_note(settings.MEMORY_PG_DUMP, 160004)
    assert note.startswith(f"MEMORY_PG_DUMP={settings.MEMORY_PG_DUMP} is PostgreSQL 15's, older than this server")
    assert pg_tools.failure_note(settings.MEMORY_PG_RESTORE, 160004) == (
        f"(The program is MEMORY_PG_RESTORE={settings.MEMORY_PG_RESTORE}.)"
    )
