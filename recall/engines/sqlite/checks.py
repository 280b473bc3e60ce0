"""SQLite's system checks (run through recall/checks.py): the recall index needs FTS5 and
sqlite-vec on every connection."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.core.checks import CheckMessage, Error
from django.db import connection


def _django_query(sql: str) -> Any:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()


def startup_checks() -> list[CheckMessage]:
    # A worker machine for the llm/embed queues has no database file; opening
    # one here would create an empty file. Connections still fail loudly
    # (core.db) if the extensions are missing where a database is used.
    name = str(connection.settings_dict["NAME"])
    if name != ":memory:" and not name.startswith("file:") and not Path(name).exists():
        return []
    return extension_errors(_django_query)


def extension_errors(query: Callable[[str], Any]) -> list[CheckMessage]:
    """Errors for a connection (given as a one-row query function) lacking FTS5 or sqlite-vec."""
    errors: list[CheckMessage] = []
    try:
        fts5 = query("SELECT sqlite_compileoption_used('ENABLE_FTS5')")[0]
    except Exception as exc:  # the connection itself may be what fails
        return [Error(f"Could not open the database: {exc}", id="recall.E000")]
    if not fts5:
        errors.append(
            Error(
                "SQLite was built without FTS5; lexical recall cannot work.",
                hint="Install sqlean.py (requirements.txt), which bundles an FTS5 build.",
                id="recall.E001",
            )
        )
    try:
        query("SELECT vec_version()")
    except Exception as exc:
        errors.append(
            Error(
                f"sqlite-vec is not loaded on database connections ({exc}).",
                hint="Install sqlite-vec and use the core.db engine.",
                id="recall.E002",
            )
        )
    return errors
