"""System checks for the process as a whole: which SQLite build serves it."""

from __future__ import annotations

from django.core.checks import Error, register
from django.db.backends.sqlite3.base import Database  # type: ignore[attr-defined]  # the driver module Django loaded

from memory_service.sqlite_driver import known_problem


def loaded_sqlite() -> str:
    """The SQLite library the driver runs on, e.g. 'SQLite 3.50.4 (sqlean)'."""
    return f"SQLite {Database.sqlite_version} ({Database.__name__.split('.')[0]})"


@register()
def check_sqlite_build(app_configs=None, **kwargs):
    # Needs no database connection, so it runs on worker hosts without a file too.
    return sqlite_build_errors(Database.sqlite_version_info, loaded_sqlite())


def sqlite_build_errors(version: tuple[int, ...], name: str) -> list[Error]:
    reason = known_problem(version)
    if reason is None:
        return []
    return [
        Error(
            f"{name} must not run this service: {reason}.",
            hint="Install the driver pinned in requirements.txt (`make install`); see docs/deployment.md.",
            id="memory_service.E001",
        )
    ]
