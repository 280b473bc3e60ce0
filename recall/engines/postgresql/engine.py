"""PostgreSQL: its side of the engine seam (core/engine.py, recall/engines/)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from django.core.checks import CheckMessage
from django.db import connection

from core.backup.manifest import Copy, Manifest, Progress
from core.engine import JournalDialect, PassReport
from recall.engines.index import LexicalIndex, VectorIndex
from recall.engines.postgresql import backup, checks, compactor, fts, scrub, vec
from recall.engines.postgresql import journal as journal_sql

T = TypeVar("T")


class PostgreSQL:
    name = "postgresql"
    embedded = False
    partitioned_by_user = True
    compacts_in_background = True
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
        scrub.note_erasure(users)

    def after_erasure(self) -> None:
        """Nothing at the commit: a rewrite would lock the tables (the compaction pass does it)."""

    def compact_pass(self, *, force: bool = False) -> PassReport | None:
        return compactor.compact_pass(force=force)

    def startup_checks(self) -> list[CheckMessage]:
        return checks.startup_checks()

    def database_checks(self) -> list[CheckMessage]:
        return checks.database_checks()

    def store_lies_in(self, folder: Path, database: str) -> bool:
        return bool(database) and connection.settings_dict["NAME"] == database

    def back_up(self, folder: Path, progress: Progress) -> Copy:
        return backup.back_up(folder, progress)

    def restore(self, folder: Path, manifest: Manifest, bring_up_to_date: Callable[[], T], progress: Progress) -> T:
        return backup.restore(folder, manifest, bring_up_to_date, progress)


ENGINE = PostgreSQL()
