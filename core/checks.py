"""System checks for the process as a whole: which SQLite build serves it (the embedded broker's
too, whatever the store's engine), and whether the erasure journal's URL is one it can open. The
storage engine's own checks are recall/engines/<engine>/checks.py (run by recall/checks.py)."""

from __future__ import annotations

from typing import Any

from django.core.checks import CheckMessage, Error, register
from django.db.backends.sqlite3.base import Database  # type: ignore[attr-defined]  # the driver module Django loaded

from core import engine
from core.sqlite_driver import known_problem


def loaded_sqlite() -> str:
    """The SQLite library the driver runs on, e.g. 'SQLite 3.50.4 (sqlean)'."""
    return f"SQLite {Database.sqlite_version} ({Database.__name__.split('.')[0]})"


@register()
def check_sqlite_build(app_configs: Any = None, **kwargs: Any) -> list[Error]:
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


@register()
def check_erasure_journal_scheme(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    from django.conf import settings

    return erasure_journal_errors(str(settings.MEMORY_ERASURE_JOURNAL))


def erasure_journal_errors(journal: str) -> list[CheckMessage]:
    """A journal is a file path, or a URL of a scheme it can open (whether a file suits the
    store is the engine's check: recall/engines/postgresql/checks.py, W001)."""
    if "://" in journal and not journal.startswith(engine.journal_schemes()):
        return [
            Error(
                f"MEMORY_ERASURE_JOURNAL={journal.split('://')[0]}://... is not accepted: use a file path, "
                "sqlite:///path or postgresql://user:password@host:port/name.",
                id="memory_service.E002",
            )
        ]
    return []
