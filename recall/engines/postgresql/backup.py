"""PostgreSQL: backups of the store with pg_dump and pg_restore (MEMORY_PG_DUMP, MEMORY_PG_RESTORE).

The row counts of the manifest come from the same snapshot pg_dump copies: a repeatable-read
transaction exports its snapshot, pg_dump reads through it (--snapshot) while the
transaction counts. The password reaches the programs through their environment, never
their command line (which `ps` shows to every user of the host).

A restore loads the dump into a new database (`new_database`), checks it and re-applies the
erasure journal there, and only then swaps it in by renaming (`swap_in`): the live database
is untouched until that one transaction, and a failure before it only drops the new one.
CREATE, RENAME and DROP DATABASE cannot run on a connection to the database they name, so
they go through the server's maintenance database (`postgres`, else `template1`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import psycopg
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.migrations.loader import MigrationLoader
from psycopg import sql

from core.backup.manifest import Copy, Damaged, Manifest, ProgramFailed, Progress, Refused, by_app, check_counts, step
from core.db import pg_tools
from core.db.postgresql_urls import connect_kwargs

logger = logging.getLogger(__name__)

FILE = "database.pgdump"
T = TypeVar("T")

# PostgreSQL's longest name (NAMEDATALEN - 1), in bytes.
_NAME_BYTES = 63


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
        try:
            note = pg_tools.failure_note(args[0], _server_version_num())
        except DatabaseError:  # the server is gone: its own message above says so
            note = ""
        raise ProgramFailed(f"{Path(args[0]).name} failed: {done.stderr.strip()[-2000:]} {note}".rstrip())


def _server_version_num() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version_num")
        return int(cursor.fetchone()[0])


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


def others_connected() -> list[str]:
    """Who else is connected to this database: "application (address, pid)" per connection, so
    an operator told to stop them knows which hosts and programs to look at. The server's own
    processes on it are not counted: an autovacuum worker (which the rename ends by itself) or
    a query's parallel workers (their client is counted) are nothing an operator can stop."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT application_name, client_addr, pid FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND backend_type IN ('client backend', 'walsender') ORDER BY pid"
        )
        rows = cursor.fetchall()
    return [f"{name or 'unnamed'} ({address or 'local socket'}, pid {pid})" for name, address, pid in rows]


def check_dump(path: Path) -> None:
    try:
        _run([settings.MEMORY_PG_RESTORE, "--list", str(path)])
    except ProgramFailed as exc:
        raise Damaged(f"{path.name} cannot be read by pg_restore: {exc}") from exc


def load(path: Path, database: str) -> None:
    """Load the dump into `database` (new and empty), in one transaction."""
    restore = [settings.MEMORY_PG_RESTORE, "--no-owner", "--no-privileges", "--exit-on-error"]
    _run([*restore, "--single-transaction", f"--dbname={database}", str(path)])


def _live() -> str:
    return str(connection.settings_dict["NAME"])


def _beside(live: str, what: str) -> str:
    suffix = f"_{what}_{os.getpid()}"
    return live.encode()[: _NAME_BYTES - len(suffix)].decode(errors="ignore") + suffix


@contextlib.contextmanager
def _maintenance() -> Iterator[psycopg.Connection]:
    failure: Exception | None = None
    for name in ("postgres", "template1"):
        try:
            conn = psycopg.connect(**connect_kwargs(connection.settings_dict, name), autocommit=True)
        except psycopg.OperationalError as exc:
            failure = exc
            continue
        with conn:
            yield conn
        return
    raise ProgramFailed(f"Cannot reach the server's maintenance database (postgres or template1): {failure}")


@contextlib.contextmanager
def new_database() -> Iterator[str]:
    """A new, empty database beside the live one, with its encoding, collation and owner;
    dropped again unless the block swapped it in."""
    name = _beside(_live(), "restoring")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_encoding_to_char(encoding), datcollate, datctype, pg_get_userbyid(datdba), "
            "pg_has_role(current_user, datdba, 'MEMBER') FROM pg_database WHERE datname = current_database()"
        )
        encoding, collate, ctype, owner, may_own = cursor.fetchone()
    connection.close()
    create = "CREATE DATABASE {} TEMPLATE template0 ENCODING {} LC_COLLATE {} LC_CTYPE {}"
    parts = [sql.Identifier(name), sql.Literal(encoding), sql.Literal(collate), sql.Literal(ctype)]
    if may_own:
        create += " OWNER {}"
        parts.append(sql.Identifier(owner))
    with _maintenance() as conn:
        try:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
            conn.execute(sql.SQL(create).format(*parts))
        except psycopg.Error as exc:
            raise ProgramFailed(
                f"Could not create the database {name} to restore into (the role needs CREATEDB): {exc}"
            ) from exc
    try:
        yield name
    except BaseException:
        connection.close()
        with _maintenance() as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        raise


@contextlib.contextmanager
def connection_on(database: str) -> Iterator[None]:
    """This thread's default connection on another database of the same server."""
    original = connection.settings_dict["NAME"]
    connection.close()
    connection.settings_dict["NAME"] = database
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict["NAME"] = original


def swap_in(database: str) -> None:
    """Give `database` the live database's name in one transaction, then drop the old one."""
    live = _live()
    old = _beside(live, "replaced")
    connection.close()
    with _maintenance() as conn:
        try:
            with conn.transaction():
                rename = sql.SQL("ALTER DATABASE {} RENAME TO {}")
                conn.execute(rename.format(sql.Identifier(live), sql.Identifier(old)))
                conn.execute(rename.format(sql.Identifier(database), sql.Identifier(live)))
        except psycopg.Error as exc:
            # Rolled back: the live database is the one it was (e.g. a process connected meanwhile).
            raise ProgramFailed(f"Could not swap the restored database in: {exc}") from exc
        try:
            conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(old)))
        except psycopg.Error:
            # The restore is done; the old contents stay in a database of their own until dropped.
            logger.error("Restored, but could not drop the replaced database %s: drop it by hand.", old, exc_info=True)


def back_up(folder: Path, progress: Progress) -> Copy:
    target = folder / FILE
    step(progress, "copy (pg_dump)")
    counts = dump_to(target)
    applied = MigrationLoader(connection, ignore_no_migrations=True).applied_migrations
    return Copy(target, counts, by_app(applied))


def restore(folder: Path, manifest: Manifest, bring_up_to_date: Callable[[], T], progress: Progress) -> T:
    """Load into a new database, check and bring it up to date there, then swap it in by name:
    until the swap the live database is untouched, and any failure drops the new one."""
    dump = folder / FILE
    check_dump(dump)
    _refuse_if_others_connected()
    with new_database() as scratch:
        step(progress, f"load (pg_restore) into {scratch}")
        load(dump, scratch)
        with connection_on(scratch):
            check_counts(manifest, table_counts())
            result = bring_up_to_date()
        step(progress, "swap it in")
        _refuse_if_others_connected()
        swap_in(scratch)
    return result


def _refuse_if_others_connected() -> None:
    if others := others_connected():
        shown = ", ".join(others[:5]) + (f" and {len(others) - 5} more" if len(others) > 5 else "")
        raise Refused(
            f"{len(others)} other connection(s) use this database (the web servers, workers or a manage.py "
            f"command): {shown}. Stop them and run restore again."
        )
