"""Take a backup of the store, prune old ones, and restore one (docs/deployment.md,
"Backups and restore").

A backup is a folder: the copy (`database.sqlite3` or `database.pgdump`) and
`manifest.json` (schema version, rows per table, checksums, when it was taken, the erasure
journal's position). It is written under a hidden name and renamed into place once whole,
so a folder with that name is always complete. A restore checks the manifest and the copy,
brings the copy's schema up to this code's, re-applies every erasure journaled after the
backup (core/db/journal.py), and only then puts it in place. How a copy is taken and put in
place is the engine's (recall/engines/<engine>/backup.py: SQLite renames the file over the
live one, PostgreSQL renames a new database over the live one). Everything that can refuse
(the manifest's signature, the checksums, the journal) is read before the live store is
touched, so a restore either finishes with every later erasure re-applied or changes nothing.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import shutil
import time
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.db.migrations.loader import MigrationLoader

from core import engine
from core.backup import manifest as manifests
from core.backup.manifest import Manifest, Progress, Refused, step
from core.db import journal
from core.private_files import private_new_folders

logger = logging.getLogger(__name__)

FOLDER_NAME = re.compile(r"^\d{8}T\d{6}Z$")


@dataclass
class Restored:
    manifest: Manifest
    migrated: bool
    replayed: Counter[str]
    seconds: float


# --- Backup ---------------------------------------------------------------------------


def default_folder() -> Path:
    return Path(settings.MEMORY_BACKUP_DIR) / datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")


def take(folder: Path, progress: Progress = None) -> Manifest:
    """Write a whole backup to `folder`, which must not exist yet."""
    if folder.exists():
        raise FileExistsError(f"{folder} already exists; give a new folder (or none, for a dated one).")
    # Only what this creates is made private: an existing parent (/tmp, 1777) keeps its mode.
    private_new_folders(folder.parent)
    partial = folder.parent / f".{folder.name}.partial-{os.getpid()}"
    private_new_folders(partial)
    try:
        manifest = _fill(partial, progress)
        step(progress, "manifest")
        manifest.write(partial)
        os.rename(partial, folder)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return manifest


def _fill(partial: Path, progress: Progress) -> Manifest:
    started, taken_at = time.monotonic(), datetime.now(UTC).isoformat()
    # Before the snapshot: an erasure journaled after this number committed after it too.
    seq, journal_id = journal.last_seq(), journal.identity()
    copy = engine.current().back_up(partial, progress)
    step(progress, "checksum")
    return Manifest(
        engine=engine.current().name,
        taken_at=taken_at,
        journal_seq=seq,
        journal_id=journal_id,
        migrations=copy.migrations,
        row_counts=copy.row_counts,
        files={copy.file.name: manifests.describe_file(copy.file)},
        seconds=round(time.monotonic() - started, 3),
    )


def prune(keep: int) -> list[Path]:
    """Delete the oldest dated backups under MEMORY_BACKUP_DIR beyond the newest `keep`."""
    root = Path(settings.MEMORY_BACKUP_DIR)
    if keep < 1 or not root.is_dir():
        return []
    dated = sorted(p for p in root.iterdir() if p.is_dir() and FOLDER_NAME.match(p.name))
    gone = dated[:-keep]
    for folder in gone:
        shutil.rmtree(folder)
    return gone


# --- Restore --------------------------------------------------------------------------


def restore(folder: Path, progress: Progress = None, *, accept_unsigned: bool = False) -> Restored:
    started = time.monotonic()
    step(progress, "check the backup")
    manifest = manifests.read(folder)
    _refuse_unless_compatible(manifest, accept_unsigned)
    step(progress, "read the erasure journal")
    entries = _read_journal(manifest)
    migrated, replayed = engine.current().restore(
        folder, manifest, lambda: _bring_up_to_date(manifest, entries, progress), progress
    )
    return Restored(manifest, migrated, replayed, round(time.monotonic() - started, 3))


@functools.cache
def _code_migrations() -> frozenset[tuple[str, str]]:
    return frozenset(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)


def _refuse_unless_compatible(manifest: Manifest, accept_unsigned: bool) -> None:
    if not manifest.signed and not accept_unsigned:
        raise Refused(
            "The backup's manifest is not signed (taken by a version from before backups were signed), so "
            "nothing vouches for the journal position it notes. Run restore again with --accept-unsigned to "
            "restore it anyway: every entry of the erasure journal is then re-applied."
        )
    if manifest.engine != engine.current().name:
        raise Refused(
            f"The backup is of a {manifest.engine} store and this service runs on {engine.current().name}; "
            "restore it into a service on the same engine (then `manage.py move_store` moves it across)."
        )
    unknown = manifest.migration_keys - _code_migrations()
    if unknown:
        raise Refused(
            f"The backup was taken by a newer version (migrations this code does not have: {sorted(unknown)[:3]}); "
            "restore it with that version."
        )


def _is_behind(manifest: Manifest) -> bool:
    return bool(_code_migrations() - manifest.migration_keys)


def _bring_up_to_date(
    manifest: Manifest, entries: list[journal.Entry], progress: Progress
) -> tuple[bool, Counter[str]]:
    """On the restored copy (the default connection points at it): migrate, re-apply erasures,
    re-index what they touched."""
    from facts.erasure_replay import replay
    from recall import indexer

    migrated = _is_behind(manifest)
    if migrated:
        step(progress, "migrate")
        call_command("migrate", interactive=False, verbosity=0, skip_checks=True)
    step(progress, f"re-apply {len(entries)} erasures")
    replayed = replay(entries)
    # Facts that shared a turn with a forgotten one are indexed again without its words.
    indexer.drain(budget_seconds=3600.0)
    # PostgreSQL: the re-applied erasures' rows leave the files before the copy serves (nothing
    # reads it yet, so the rewrite blocks no one). SQLite's scrub already ran at each erasure.
    engine.current().compact_pass()
    return migrated, replayed


def _read_journal(manifest: Manifest) -> list[journal.Entry]:
    """The entries to re-apply, read before anything changes: a journal that cannot be read
    (or not with this service's keys) stops the restore here."""
    try:
        journal.check_keys()
        return _entries_to_replay(manifest)
    except (journal.Unreachable, journal.KeyMissing) as exc:
        raise Refused(str(exc)) from exc


def _entries_to_replay(manifest: Manifest) -> list[journal.Entry]:
    if not manifest.signed:
        # Nothing vouches for its numbers or its time: every entry (re-applying one is harmless).
        return journal.entries_after(0)
    if manifest.journal_id == journal.identity():
        return journal.entries_after(manifest.journal_seq)
    # Another journal than the backup noted (made afresh, or another host's): its numbers
    # say nothing about the backup, its times do. Re-applying an entry is harmless.
    logger.warning(
        "The erasure journal is not the one the backup noted; re-applying every entry since %s.", manifest.taken_at
    )
    return journal.entries_since(manifest.taken_at)
