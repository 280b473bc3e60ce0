"""Backups of a PostgreSQL store with pg_dump and pg_restore (MEMORY_PG_DUMP, MEMORY_PG_RESTORE).

The row counts of the manifest come from the same snapshot pg_dump copies: a repeatable-read
transaction exports its snapshot, pg_dump reads through it (--snapshot) while the
transaction counts. The password reaches the programs through their environment, never
their command line (which `ps` shows to every user of the host).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction

from memory_service.backup.manifest import Damaged
from memory_service.db.postgresql_urls import connect_kwargs

FILE = "database.pgdump"


class ProgramFailed(Exception):
    pass


def _program_env() -> dict[str, str]:
    kwargs = connect_kwargs(connection.settings_dict)
    env = dict(os.environ)
    env.update({"PGDATABASE": kwargs["dbname"], "PGUSER": kwargs["user"] or "", "PGHOST": kwargs["host"]})
    env["PGPASSWORD"] = kwargs["password"] or ""
    if kwargs.get("port"):
        env["PGPORT"] = str(kwargs["port"])
    return env


def _run(args: list[str]) -> None:
    try:
        done = subprocess.run(args, env=_program_env(), capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise ProgramFailed(
            f"{args[0]} was not found: install PostgreSQL's client programs or point "
            "MEMORY_PG_DUMP / MEMORY_PG_RESTORE at them."
        ) from None
    if done.returncode:
        raise ProgramFailed(f"{Path(args[0]).name} failed: {done.stderr.strip()[-2000:]}")


def table_counts() -> dict[str, int]:
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        names = sorted(connection.introspection.table_names(cursor))
        counts = {}
        for name in names:
            cursor.execute(f"SELECT COUNT(*) FROM {quote(name)}")
            counts[name] = cursor.fetchone()[0]
    return counts


def dump_to(target: Path) -> dict[str, int]:
    """pg_dump the store into `target` and return the row counts of the same snapshot."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            cursor.execute("SELECT pg_export_snapshot()")
            snapshot = cursor.fetchone()[0]
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.close(fd)
        dump = [settings.MEMORY_PG_DUMP, "--format=custom", "--no-owner", "--no-privileges"]
        _run([*dump, f"--snapshot={snapshot}", f"--file={target}"])
        return table_counts()


def others_connected() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return int(cursor.fetchone()[0])


def check_dump(path: Path) -> None:
    try:
        _run([settings.MEMORY_PG_RESTORE, "--list", str(path)])
    except ProgramFailed as exc:
        raise Damaged(f"{path.name} cannot be read by pg_restore: {exc}") from exc


def load(path: Path) -> None:
    """Replace the database's contents with the dump's, in one transaction."""
    connection.close()
    restore = [settings.MEMORY_PG_RESTORE, "--clean", "--if-exists", "--no-owner", "--no-privileges"]
    _run(
        [*restore, "--single-transaction", f"--dbname={connect_kwargs(connection.settings_dict)['dbname']}", str(path)]
    )
