"""SQLite, the embedded default: its side of the engine seam (core/engine.py, recall/engines/)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from django.core.checks import CheckMessage
from django.db import connection

from core.backup.manifest import Copy, Manifest, Progress
from core.engine import JournalDialect, PassReport
from recall.engines.index import LexicalIndex, VectorIndex
from recall.engines.sqlite import backup, checks, fts, scrub, vec
from recall.engines.sqlite import journal as journal_sql

T = TypeVar("T")


class SQLite:
    name = "sqlite"
    embedded = True
    partitioned_by_user = False
    compacts_in_background = False
    journal = JournalDialect(
        journal_sql.URL_SCHEMES,
        journal_sql.SCHEMA,
        journal_sql.LEGACY_KEY_TABLE,
        journal_sql.WRITE_LOCK,
        journal_sql.connect,
    )
    fts: LexicalIndex = fts
    vec: VectorIndex = vec

    def note_erasure(self, users: Iterable[int]) -> None:
        """Nothing to leave for later: the bytes go at the commit (after_erasure)."""

    def after_erasure(self) -> None:
        scrub.after_erasure()

    def compact_pass(self, *, force: bool = False) -> PassReport | None:
        """No background pass: secure_delete and the WAL checkpoint after each erasure did it."""
        return None

    def startup_checks(self) -> list[CheckMessage]:
        return checks.startup_checks()

    def database_checks(self) -> list[CheckMessage]:
        """Nothing that needs more than start-up does."""
        return []

    def store_lies_in(self, folder: Path, database: str) -> bool:
        name = str(connection.settings_dict["NAME"])
        return Path(name).resolve().is_relative_to(folder.resolve())

    def back_up(self, folder: Path, progress: Progress) -> Copy:
        return backup.back_up(folder, progress)

    def restore(self, folder: Path, manifest: Manifest, bring_up_to_date: Callable[[], T], progress: Progress) -> T:
        return backup.restore(folder, manifest, bring_up_to_date, progress)


ENGINE = SQLite()
