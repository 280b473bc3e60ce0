"""A backup taken by the first release (its store, with a manifest written for it) restores
into current main: the restore migrates it before it re-applies erasures and puts it in place
(memory_service/backup/store.py), and every row the first release wrote is there.

Manifests of that time were not signed: the restore refuses such a backup unless the operator
passes --accept-unsigned, and then re-applies the whole erasure journal."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime

import pytest

from core.backup import manifest as manifests
from recall.engines.sqlite import backup as sqlite_store
from tests.integration.stack import ROOT, clean_env, manage

pytestmark = [pytest.mark.sqlite_only, pytest.mark.slow]

STORE = ROOT / "tests" / "upgrade" / "data" / "first_release.sqlite3"


def _first_release_backup(folder) -> manifests.Manifest:
    folder.mkdir()
    copy = folder / sqlite_store.FILE
    shutil.copyfile(STORE, copy)
    manifest = manifests.Manifest(
        engine="sqlite",
        taken_at=datetime.now(UTC).isoformat(),
        journal_seq=0,
        migrations=sqlite_store.applied_migrations(copy),
        row_counts=sqlite_store.row_counts(copy),
        files={copy.name: manifests.describe_file(copy)},
    )
    manifest.write(folder)
    # As that release wrote it: no signature.
    path = folder / manifests.NAME
    path.write_text(json.dumps({k: v for k, v in json.loads(path.read_text()).items() if k != "signature"}))
    return manifest


def test_a_first_release_backup_is_migrated_by_the_restore_and_keeps_its_rows(tmp_path):
    manifest = _first_release_backup(tmp_path / "backup")
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    env = clean_env(
        DATABASE_URL=f"sqlite:///{fresh / 'memory.sqlite3'}",
        MEMORY_VAR_DIR=str(fresh),
        MEMORY_ERASURE_JOURNAL=str(tmp_path / "journal.sqlite3"),
    )

    with pytest.raises(RuntimeError, match="not signed.*--accept-unsigned"):
        manage(["restore", str(tmp_path / "backup")], env)
    output = manage(["restore", "--accept-unsigned", str(tmp_path / "backup")], env)

    assert "migrated: yes" in output, output
    restored = sqlite_store.row_counts(fresh / "memory.sqlite3")
    for table in ("facts_tenant", "facts_memoryuser", "facts_fact", "facts_facthistory", "facts_turn"):
        assert restored[table] == manifest.row_counts[table] > 0, table
    # Nothing left for migrate to do: the store is at this code's schema.
    assert "No migrations to apply" in manage(["migrate", "--noinput"], env)
