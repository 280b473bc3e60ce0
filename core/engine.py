"""The storage-engine seam's interface: what differs between SQLite and PostgreSQL, as one Protocol.

Each engine is one folder, recall/engines/<engine>/, holding all of its engine-specific code
(the index SQL, the scrub of erased bytes, ...) and one object, `ENGINE`, that satisfies
`Engine` (mypy checks it). recall/engines/__init__.py picks the engine in use from
settings.DATABASE_ENGINE (`current`, the one place outside the settings that reads it) and
hands it here when recall loads (`install`), so the floors below recall (this ground, facts)
reach it through `current()` without importing upward (the erasure journal, whose engine
is that of its own URL, through `journal_dialect`). Outside recall/engines/ only the
settings, the migrations with their `OnlyOn` guard and the settings' URL reader name an
engine (scripts/floors.py counts the places; tests/service/test_floors_script.py holds the
list). docs/design.md, "Engine seam".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

from django.core.checks import CheckMessage

from core.backup.manifest import Copy, Manifest, Progress

T = TypeVar("T")


@dataclass
class PassReport:
    """What one compaction pass of erased rows did (an engine that rewrites files after
    erasures; recall/engines/postgresql/compactor.py)."""

    started_at: datetime
    finished_at: datetime | None = None
    held_seconds: dict[str, float] = field(default_factory=dict)  # table -> time under ACCESS EXCLUSIVE
    left_for_next_pass: list[str] = field(default_factory=list)
    receipts_stamped: int = 0

    @property
    def complete(self) -> bool:
        return not self.left_for_next_pass


@dataclass(frozen=True)
class JournalDialect:
    """The SQL of the erasure journal (core/db/journal.py) on one engine: the journal picks the
    engine from its own URL (MEMORY_ERASURE_JOURNAL), whatever the store's engine is."""

    url_schemes: tuple[str, ...]  # a journal URL starting with one of these is this engine's
    schema: tuple[str, ...]  # CREATE TABLE IF NOT EXISTS statements
    legacy_key_table: str  # a row when a journal from before the key moved out still holds it
    write_lock: str  # taken before the legacy key moves out
    connect: Callable[[str], tuple[Any, str]]  # a DB-API connection to the URL, and its placeholder


class Engine(Protocol):
    """A storage engine: the parts of the service that cannot be written once for both."""

    @property
    def name(self) -> str:
        """Its name in settings.DATABASE_ENGINE and in a backup's manifest."""
        ...

    @property
    def journal(self) -> JournalDialect: ...

    @property
    def embedded(self) -> bool:
        """The store is a file this process opens itself, no server (`manage.py move_store`
        moves such a store to a server)."""
        ...

    @property
    def partitioned_by_user(self) -> bool:
        """The user-data tables are hash-partitioned by user (`manage.py repartition` changes
        the count)."""
        ...

    @property
    def compacts_in_background(self) -> bool:
        """Erased rows' bytes leave the files in a background pass (`compact_pass`), not at
        the erasure's commit."""
        ...

    # --- erased bytes (facts/scrub.py calls these at every forget and erase) ---------------

    def note_erasure(self, users: Iterable[int]) -> None:
        """Inside the erasing transaction: leave what the bytes' removal needs later
        (`users`: whose rows went; none named means anyone's)."""
        ...

    def after_erasure(self) -> None:
        """Once the erasure has committed: remove what can be removed at once."""
        ...

    def compact_pass(self, *, force: bool = False) -> PassReport | None:
        """The background pass that removes erased rows' bytes, if this engine needs one
        (None: nothing to do, or nothing this engine does in the background)."""
        ...

    # --- system checks (registered by recall/checks.py) -------------------------------------

    def startup_checks(self) -> list[CheckMessage]:
        """At every start (no `--database` needed); a check that needs the server and cannot
        reach it says nothing."""
        ...

    def database_checks(self) -> list[CheckMessage]:
        """With `manage.py check --database`, migrate and the test run."""
        ...

    # --- the bench's throwaway stack (bench/throwaway.py) -------------------------------------

    def store_lies_in(self, folder: Path, database: str) -> bool:
        """The store this process opens is a throwaway one: a file under `folder`, or the
        server database named `database` (made for the run; "" when none was)."""
        ...

    # --- backup and restore (memory_service/backup/store.py runs the common steps) ----------

    def back_up(self, folder: Path, progress: Progress) -> Copy:
        """Write a consistent copy of the live store into `folder`."""
        ...

    def restore(self, folder: Path, manifest: Manifest, bring_up_to_date: Callable[[], T], progress: Progress) -> T:
        """Put the backup in `folder` in place of the live store: check the copy against the
        manifest, run `bring_up_to_date` with Django's connection on the copy (migrate, re-apply
        erasures), then swap it in; any failure before the swap leaves the live store as it was."""
        ...


_installed: Engine | None = None
_known: tuple[Engine, ...] = ()


def install(engine: Engine, known: Iterable[Engine]) -> None:
    """Called once, by recall when it loads (recall/apps.py), with the engine in use and every
    engine there is (an erasure journal may be on another engine than the store)."""
    global _installed, _known
    _installed, _known = engine, tuple(known)


def journal_dialect(where: str) -> JournalDialect:
    """The journal SQL for MEMORY_ERASURE_JOURNAL=`where`: the engine whose URL scheme it
    starts with; a plain file path is the embedded engine's file."""
    if not _known:
        raise RuntimeError("No storage engine installed: Django is not set up (recall's AppConfig.ready installs it).")
    for known in _known:
        if where.startswith(known.journal.url_schemes):
            return known.journal
    return next(known.journal for known in _known if known.embedded)


def journal_schemes() -> tuple[str, ...]:
    """Every URL scheme an erasure journal may have (core/checks.py refuses the others)."""
    return tuple(scheme for known in _known for scheme in known.journal.url_schemes)


def current() -> Engine:
    if _installed is None:
        raise RuntimeError("No storage engine installed: Django is not set up (recall's AppConfig.ready installs it).")
    return _installed
