"""What a backup folder and the erasure journal can be trusted with, on both engines
(docs/deployment.md, "Backups and restore"): the manifest is signed with a key no backup
holds, the journal's key is not in the journal, and a backup makes private only the
folders it creates."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import sqlite3
import stat
from pathlib import Path

import pytest
from django.core.management import CommandError

from core.backup import manifest as manifests
from core.db import journal
from facts import privacy
from facts.models import MemoryUser, Tenant
from tests.db_files import file_bytes
from tests.facts.test_backup_restore import STAFF, _backup, _restore, _seed

pytestmark = pytest.mark.django_db(transaction=True)


def _edit_manifest(folder: Path, *, sign: bool, drop: tuple[str, ...] = (), **changes) -> None:
    """Change manifest.json as someone with write access to the backup could; `sign` re-signs it
    with this service's key (what only a holder of SECRET_KEY can do)."""
    path = folder / manifests.NAME
    raw = {**json.loads(path.read_text()), **changes}
    for name in drop:
        raw.pop(name, None)
    path.unlink()
    if sign:
        raw.pop("signature", None)
        manifests.Manifest(**raw).write(folder)
    else:
        path.write_text(json.dumps(raw))


def _users() -> list[str]:
    return sorted(MemoryUser.objects.values_list("external_id", flat=True))


def _erase_after_a_backup(tenant: Tenant, tmp_path: Path) -> Path:
    _seed(tenant)
    folder = _backup(tmp_path)
    privacy.user_erase(user=MemoryUser.objects.get(external_id="victim"), actor=STAFF)
    assert _users() == ["bystander", "keeper"]
    return folder


# --- Item 2: only what the backup creates is made private ------------------------------


def test_a_backup_keeps_the_mode_of_an_existing_parent_and_makes_the_folders_it_creates_private(alice, tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)  # like /tmp: anyone may write, the sticky bit keeps their files theirs

    _backup(shared, "x")
    _backup(shared, "a/b/x")  # parents that do not exist yet are made by the backup

    assert stat.S_IMODE(shared.stat().st_mode) == 0o1777
    for made in ("x", "a", "a/b", "a/b/x"):
        assert stat.S_IMODE((shared / made).stat().st_mode) == 0o700, made


# --- Item 1: the journal is read before anything changes ---------------------------------


def test_a_restore_that_cannot_open_the_journal_says_so_and_changes_nothing(alice, settings, tmp_path):
    folder = _erase_after_a_backup(alice.tenant, tmp_path)
    Tenant.objects.create(name="made after the backup")
    # The journal's folder is now a file: the journal cannot be opened (the postgresql://
    # case, a journal database that is gone, is in test_backup_restore_postgresql.py).
    (tmp_path / "lost").write_text("")
    settings.MEMORY_ERASURE_JOURNAL = str(tmp_path / "lost" / "erasure-journal.sqlite3")

    with pytest.raises(CommandError, match="Nothing was restored. The erasure journal .* cannot be opened"):
        _restore(folder)
    assert Tenant.objects.filter(name="made after the backup").exists()
    assert _users() == ["bystander", "keeper"]


# --- Item 14: the manifest is signed ------------------------------------------------------


def test_a_manifest_changed_after_the_backup_is_refused_and_the_erased_user_stays_erased(alice, tmp_path):
    folder = _erase_after_a_backup(alice.tenant, tmp_path)
    # Past every entry the journal will ever hold: a restore would re-apply nothing.
    _edit_manifest(folder, sign=False, journal_seq=1e9)

    with pytest.raises(CommandError, match="damaged; nothing was restored.*signature"):
        _restore(folder)
    assert _users() == ["bystander", "keeper"]


def test_an_unsigned_backup_needs_accept_unsigned_and_then_every_journal_entry_is_re_applied(alice, tmp_path):
    folder = _erase_after_a_backup(alice.tenant, tmp_path)
    # A backup from before manifests were signed, whose number nothing vouches for.
    _edit_manifest(folder, sign=False, drop=("signature",), journal_seq=10**9)

    with pytest.raises(CommandError, match="not signed.*--accept-unsigned"):
        _restore(folder)
    assert _users() == ["bystander", "keeper"]

    assert "1 user" in _restore(folder, "--accept-unsigned")
    assert _users() == ["bystander", "keeper"]


def test_a_restore_without_the_key_the_journal_was_keyed_under_changes_nothing(alice, settings, tmp_path):
    folder = _erase_after_a_backup(alice.tenant, tmp_path)
    Tenant.objects.create(name="made after the backup")
    old_key, settings.SECRET_KEY = settings.SECRET_KEY, "another key " + "x" * 50
    _edit_manifest(folder, sign=True)  # the manifest passes; the journal's entries need the old key

    with pytest.raises(CommandError, match="Nothing was restored.*SECRET_KEY_FALLBACKS"):
        _restore(folder)
    assert Tenant.objects.filter(name="made after the backup").exists()

    settings.SECRET_KEY_FALLBACKS = [old_key]
    assert "re-applied: 1 user" in _restore(folder)
    assert _users() == ["bystander", "keeper"]
    assert not Tenant.objects.filter(name="made after the backup").exists()


# --- Item 14: the journal's key is not in the journal -------------------------------------


def _cells(path: Path) -> list[str]:
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")]
        return [str(v) for t in tables for row in conn.execute(f'SELECT * FROM "{t}"') for v in row if v is not None]


def _confirms(candidate: str, tenant_id: object, external_id: str, user_hash: str) -> bool:
    keys = [candidate.encode()]
    with contextlib.suppress(ValueError):
        keys.append(bytes.fromhex(candidate))
    message = f"{tenant_id}:{external_id}".encode()
    return any(hmac.new(k, message, hashlib.sha256).hexdigest() == user_hash for k in keys)


def test_the_journal_file_alone_cannot_confirm_who_was_erased(alice):
    _seed(alice.tenant)
    privacy.user_erase(user=MemoryUser.objects.get(external_id="victim"), actor=STAFF)
    [entry] = [e for e in journal.entries_after(0) if e.kind == journal.USER][-1:]
    assert journal.matches_user(tenant_id=alice.tenant.pk, external_id="victim", key=entry.user_key)

    cells = _cells(Path(journal.location()))
    assert entry.user_key in cells
    assert [c for c in cells if _confirms(c, alice.tenant.pk, "victim", entry.user_key)] == []


def _legacy_journal(path: Path, secret: str, *, tenant_id: object, external_id: str) -> str:
    """A journal as written before its key moved out: the key in a table beside the entries."""
    user_hash = hmac.new(bytes.fromhex(secret), f"{tenant_id}:{external_id}".encode(), hashlib.sha256).hexdigest()
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TABLE erasure_journal (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, "
            "tenant_id TEXT NOT NULL, user_pk BIGINT, user_key TEXT NOT NULL DEFAULT '', receipt_id BIGINT, "
            "fact_uuids TEXT NOT NULL DEFAULT '[]', recorded_at TEXT NOT NULL)"
        )
        conn.execute("CREATE TABLE erasure_journal_key (id INTEGER PRIMARY KEY, secret TEXT NOT NULL)")
        conn.execute("INSERT INTO erasure_journal_key (id, secret) VALUES (1, ?)", [secret])
        conn.execute(
            "INSERT INTO erasure_journal (kind, tenant_id, user_pk, user_key, recorded_at) VALUES (?, ?, ?, ?, ?)",
            [journal.USER, str(tenant_id), 1, user_hash, "2026-01-01T00:00:00+00:00"],
        )
    conn.close()
    return user_hash


def test_a_journal_that_held_its_key_has_it_moved_out_once_and_its_entries_still_match(settings, tmp_path):
    path = tmp_path / "old-journal.sqlite3"
    secret = os.urandom(32).hex()
    user_hash = _legacy_journal(path, secret, tenant_id=7, external_id="victim")
    settings.MEMORY_ERASURE_JOURNAL = str(path)

    # The name a backup noted for this journal stays the same.
    assert journal.identity() == hashlib.sha256(b"journal:" + bytes.fromhex(secret)).hexdigest()[:16]
    assert journal.matches_user(tenant_id=7, external_id="victim", key=user_hash)
    assert not journal.matches_user(tenant_id=7, external_id="someone else", key=user_hash)

    assert secret.encode() not in file_bytes(path)
    assert [c for c in _cells(path) if _confirms(c, 7, "victim", user_hash)] == []
    # Without this service's key the moved-out key cannot be unwrapped: the restore is refused.
    settings.SECRET_KEY = "another key " + "x" * 50
    with pytest.raises(journal.KeyMissing, match="SECRET_KEY"):
        journal.check_keys()
