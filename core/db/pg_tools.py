"""Whether PostgreSQL's client programs can back up this server: MEMORY_PG_DUMP and MEMORY_PG_RESTORE.

pg_dump refuses a server of a newer major version ("server version mismatch"), and a
pg_restore older than the pg_dump that wrote a dump cannot read it; a newer client is
fine. Debian's default pg_dump is 15: against a PostgreSQL 16 server every backup failed,
with pg_dump's own message, which names neither setting. The system check
(core/checks.py, memory_service.W002) reads the versions here at every start;
`failure_note` says which setting to change when a run of one of them fails.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass

# "pg_dump (PostgreSQL) 16.4", "pg_dump (PostgreSQL) 15.8 (Debian 15.8-0+deb12u1)", "... 17beta1"
VERSION = re.compile(r"\(PostgreSQL\)\s+(\d+)")
SETTINGS = ("MEMORY_PG_DUMP", "MEMORY_PG_RESTORE")
ASKING_SECONDS = 10.0
# libpq's least; the check runs at every start and must not hang one on an unreachable server.
CONNECT_SECONDS = 3


@dataclass(frozen=True)
class Program:
    setting: str  # MEMORY_PG_DUMP or MEMORY_PG_RESTORE
    path: str  # its value


def configured() -> list[Program]:
    from django.conf import settings

    return [Program(name, str(getattr(settings, name))) for name in SETTINGS]


def major_of(program: Program) -> int:
    """The major version `program --version` prints; ValueError saying why there is none."""
    try:
        done = subprocess.run(
            [program.path, "--version"], capture_output=True, text=True, timeout=ASKING_SECONDS, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ValueError(f"cannot be run ({type(exc).__name__}: {exc})") from None
    found = VERSION.search(done.stdout)
    if done.returncode or not found:
        raise ValueError(f"did not print its version (exit {done.returncode}: {done.stdout.strip()[:200]!r})")
    return int(found.group(1))


def problem(program: Program, server_major: int) -> str | None:
    """Why `program` cannot back up (or restore into) a server of `server_major`, naming its setting."""
    try:
        major = major_of(program)
    except ValueError as exc:
        return f"{program.setting}={program.path} {exc}."
    if major >= server_major:
        return None
    return (
        f"{program.setting}={program.path} is PostgreSQL {major}'s, older than this server "
        f"(PostgreSQL {server_major}): backups and restores would fail."
    )


def problems(server_major: int) -> list[str]:
    """What stops the configured programs from backing up a server of `server_major` (empty when nothing)."""
    return [found for program in configured() if (found := problem(program, server_major))]


def failure_note(path: str, server_version_num: int) -> str:
    """For the message of a failed run of `path`: which setting names it, and why it failed if that is known."""
    for program in configured():
        if program.path == path:
            return problem(program, server_major(server_version_num)) or f"(The program is {program.setting}={path}.)"
    return ""


def server_version_num() -> int:
    """The server's version (160004), on a short connection of its own (psycopg.Error when unreachable)."""
    import psycopg
    from django.db import connection

    params = {"connect_timeout": CONNECT_SECONDS, **connection.get_connection_params()}
    with psycopg.connect(**params) as conn:
        return int(conn.info.server_version)


def server_major(server_version_num: int) -> int:
    """160004 -> 16 (Django's connection.pg_version is server_version_num)."""
    return server_version_num // 10000


def connection_slots() -> int:
    """How many ordinary connections the server accepts (max_connections less the reserved ones),
    on a short connection of its own (psycopg.Error when unreachable)."""
    import psycopg
    from django.db import connection

    params = {"connect_timeout": CONNECT_SECONDS, **connection.get_connection_params()}
    with psycopg.connect(**params) as conn:
        row = conn.execute(
            "SELECT current_setting('max_connections')::int"
            " - current_setting('superuser_reserved_connections')::int"
            " - coalesce(current_setting('reserved_connections', true)::int, 0)"
        ).fetchone()
    return int(row[0]) if row else 0
