"""Backup and restore on PostgreSQL (pg_dump / pg_restore of the same build, tests/on_postgres.py):
what was erased after the backup stays erased, in the rows and in the table files; and a
restore that cannot finish (no journal, a copy that does not match its manifest) leaves the
live database as it was, because it loads into a new database and swaps only at the end."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from django.core.management import CommandError
from django.db import connection

from core.backup import manifest as manifests
from core.db import journal
from core.db.postgresql_urls import url_of
from facts import privacy
from facts.models import MemoryUser, Tenant
from memory_service.backup import store
from recall.engines.postgresql import checks as postgresql_checks
from tests.db_files import postgres_data_files
from tests.facts.dashboard_helpers import seed_everything
from tests.facts.test_backup_restore import (
    STAFF,
    _backup,
    _restore,
    _seed,
    erase_after_a_backup_then_restore,
    withdraw_a_turn_after_a_backup_then_restore,
)
from tests.facts.test_backup_trust import _confirms, _edit_manifest, _users
from tests.integration.stack import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _on_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("pg_dump and pg_restore; tests/facts/test_backup_restore.py covers SQLite")


def test_a_postgresql_restore_keeps_erasures_made_after_the_backup(alice, tmp_path):
    drill = erase_after_a_backup_then_restore(alice.tenant, tmp_path)

    assert manifests.read(drill.folder).row_counts["facts_fact"] == drill.facts_at_backup
    files = postgres_data_files()
    victim = drill.markers["victim"]
    leaks = [kind for kind, text in victim.items() if any(text.encode() in d for d in files.values())]
    assert leaks == []
    assert any(drill.markers["bystander"]["fact"].encode() in d for d in files.values())


def test_a_postgresql_restore_keeps_a_turn_withdrawn_after_the_backup(alice, tmp_path):
    markers = withdraw_a_turn_after_a_backup_then_restore(alice.tenant, tmp_path)

    # The restore ran a compaction pass before the swap: the words are gone from the files.
    files = postgres_data_files()
    assert not any(markers["turn"].encode() in d for d in files.values())


def _databases() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT datname FROM pg_database ORDER BY datname")
        return [row[0] for row in cursor.fetchall()]


def _create_journal_database(settings) -> str:
    name = f"journal_{uuid.uuid4().hex[:8]}"
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE DATABASE {name}")
    settings.MEMORY_ERASURE_JOURNAL = url_of(connection.settings_dict, name)
    return name


def _drop_database(name: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_the_journal_can_live_in_a_postgresql_database_every_host_reaches(alice, settings):
    name = _create_journal_database(settings)
    try:
        seed_everything(alice.tenant, "victim")
        privacy.user_erase(user=MemoryUser.objects.get(external_id="victim"), actor=STAFF)

        [entry] = journal.entries_after(0)
        assert (entry.kind, entry.tenant_id) == (journal.USER, str(alice.tenant.pk))
        assert journal.matches_user(tenant_id=alice.tenant.pk, external_id="victim", key=entry.user_key)
        assert postgresql_checks.journal_warnings(settings.MEMORY_ERASURE_JOURNAL) == []
        # The key is not in the journal's database: nothing there but the entries and check values.
        with psycopg.connect(settings.MEMORY_ERASURE_JOURNAL) as conn:
            tables = [r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
            cells = [str(v) for t in tables for row in conn.execute(f'SELECT * FROM "{t}"') for v in row]
        assert sorted(tables) == ["erasure_journal", "erasure_journal_meta"]
        assert [c for c in cells if _confirms(c, alice.tenant.pk, "victim", entry.user_key)] == []
    finally:
        _drop_database(name)


def test_a_restore_whose_journal_is_gone_says_so_and_leaves_the_live_database_as_it_was(alice, settings, tmp_path):
    name = _create_journal_database(settings)
    try:
        _seed(alice.tenant)
        folder = _backup(tmp_path)
        privacy.user_erase(user=MemoryUser.objects.get(external_id="victim"), actor=STAFF)
        Tenant.objects.create(name="made after the backup")
    finally:
        _drop_database(name)
    before = _databases()

    with pytest.raises(CommandError, match="Nothing was restored. The erasure journal .* cannot be opened"):
        _restore(folder)
    assert Tenant.objects.filter(name="made after the backup").exists()
    assert _users() == ["bystander", "keeper"]
    assert _databases() == before


def test_a_copy_that_does_not_match_its_manifest_is_refused_and_the_live_database_kept(alice, tmp_path):
    _seed(alice.tenant)
    folder = _backup(tmp_path)
    privacy.user_erase(user=MemoryUser.objects.get(external_id="victim"), actor=STAFF)
    Tenant.objects.create(name="made after the backup")
    counts = manifests.read(folder).row_counts
    # Signed by this service: the signature holds, the rows loaded do not match.
    _edit_manifest(folder, sign=True, row_counts={**counts, "facts_fact": counts["facts_fact"] + 1})
    before = _databases()

    with pytest.raises(CommandError, match="damaged; nothing was restored.*facts_fact"):
        _restore(folder)
    assert Tenant.objects.filter(name="made after the backup").exists()
    assert _users() == ["bystander", "keeper"]
    # The new database the restore loaded into is gone again.
    assert _databases() == before


def test_a_finished_restore_leaves_no_database_behind(alice, tmp_path):
    before = _databases()
    drill = erase_after_a_backup_then_restore(alice.tenant, tmp_path)
    assert "re-applied: 1 facts, 1 user" in drill.output
    assert _databases() == before


def test_a_process_that_connects_during_the_restore_stops_it_before_the_swap(alice, monkeypatch, tmp_path):
    _seed(alice.tenant)
    folder = _backup(tmp_path)
    privacy.user_erase(user=MemoryUser.objects.get(external_id="victim"), actor=STAFF)
    live_url = url_of(connection.settings_dict)
    started: list[psycopg.Connection] = []
    bring_up_to_date = store._bring_up_to_date

    def and_a_worker_starts(*args, **kwargs):
        result = bring_up_to_date(*args, **kwargs)
        started.append(psycopg.connect(live_url))  # a worker started while the restore ran
        return result

    monkeypatch.setattr(store, "_bring_up_to_date", and_a_worker_starts)
    before = _databases()
    try:
        # The refusal names who is connected: this psycopg connection, by its pid, over the socket.
        with pytest.raises(
            CommandError, match=r"Nothing was restored. 1 other connection.*unnamed \(local socket, pid \d+\)"
        ):
            _restore(folder)
    finally:
        for conn in started:
            conn.close()
    assert _users() == ["bystander", "keeper"]
    assert _databases() == before


def test_a_restore_goes_through_while_autovacuum_works_on_the_live_database(alice, tmp_path):
    """Autovacuum workers show in pg_stat_activity under the database's name, without an
    application or an address: the restore counted one as a connection to stop (a fresh-clone CI
    run of 0be0e55 refused with two "unnamed (local socket)" ones), and no operator can stop it.
    PostgreSQL itself ends an autovacuum worker that stands in the way of the rename."""
    _seed(alice.tenant)
    folder = _backup(tmp_path)
    privacy.user_erase(user=MemoryUser.objects.get(external_id="victim"), actor=STAFF)
    with _autovacuum_at_work():
        out = _restore(folder)
    assert "erasures made since then re-applied: 1 user" in out
    assert _users() == ["bystander", "keeper"]


@contextlib.contextmanager
def _autovacuum_at_work() -> Iterator[None]:
    """A table of dead rows that autovacuum takes seconds over (a cost delay per page), and the
    launcher waking every second, until an autovacuum worker is seen on this database."""
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE autovacuum_bait (n int) WITH (autovacuum_vacuum_threshold = 0, "
            "autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_cost_delay = 100, "
            "autovacuum_vacuum_cost_limit = 1)"
        )
        cursor.execute("INSERT INTO autovacuum_bait SELECT generate_series(1, 100000)")
        cursor.execute("DELETE FROM autovacuum_bait")
        cursor.execute("ALTER SYSTEM SET autovacuum_naptime = 1")
        cursor.execute("SELECT pg_reload_conf()")
    try:
        wait_for(_autovacuum_workers, 30, 0.2, "an autovacuum worker on the test database")
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("ALTER SYSTEM RESET autovacuum_naptime")
            cursor.execute("SELECT pg_reload_conf()")
            cursor.execute("DROP TABLE IF EXISTS autovacuum_bait")


def _autovacuum_workers() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND backend_type = 'autovacuum worker'"
        )
        return cursor.fetchone()[0]


def test_a_postgresql_journal_that_held_its_key_has_it_moved_out_once(settings):
    name = _create_journal_database(settings)
    secret = os.urandom(32).hex()
    user_hash = hmac.new(bytes.fromhex(secret), b"7:victim", hashlib.sha256).hexdigest()
    try:
        with psycopg.connect(settings.MEMORY_ERASURE_JOURNAL) as conn:  # as the previous release wrote it
            conn.execute(
                "CREATE TABLE erasure_journal (seq BIGSERIAL PRIMARY KEY, kind TEXT NOT NULL, "
                "tenant_id TEXT NOT NULL, user_pk BIGINT, user_key TEXT NOT NULL DEFAULT '', receipt_id BIGINT, "
                "fact_uuids TEXT NOT NULL DEFAULT '[]', recorded_at TEXT NOT NULL)"
            )
            conn.execute("CREATE TABLE erasure_journal_key (id INTEGER PRIMARY KEY, secret TEXT NOT NULL)")
            conn.execute("INSERT INTO erasure_journal_key (id, secret) VALUES (1, %s)", [secret])
            conn.execute(
                "INSERT INTO erasure_journal (kind, tenant_id, user_pk, user_key, recorded_at) "
                "VALUES ('user', '7', 1, %s, '2026-01-01T00:00:00+00:00')",
                [user_hash],
            )

        assert journal.identity() == hashlib.sha256(b"journal:" + bytes.fromhex(secret)).hexdigest()[:16]
        assert journal.matches_user(tenant_id=7, external_id="victim", key=user_hash)
        with psycopg.connect(settings.MEMORY_ERASURE_JOURNAL) as conn:
            tables = [r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
            cells = [str(v) for t in tables for row in conn.execute(f'SELECT * FROM "{t}"') for v in row]
        assert sorted(tables) == ["erasure_journal", "erasure_journal_meta"]
        assert secret not in cells
        assert [c for c in cells if _confirms(c, 7, "victim", user_hash)] == []
    finally:
        _drop_database(name)


def test_a_backup_whose_pg_dump_is_older_than_the_server_names_the_setting(alice, settings, tmp_path):
    # Debian's default pg_dump 15 against a 16 server: pg_dump's own message names no setting.
    old_dump = tmp_path / "pg_dump"
    old_dump.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = "--version" ]; then echo "pg_dump (PostgreSQL) 15.8"; exit 0; fi\n'
        'echo "pg_dump: error: aborting because of server version mismatch" >&2; exit 1\n'
    )
    old_dump.chmod(0o755)
    settings.MEMORY_PG_DUMP = str(old_dump)

    with pytest.raises(CommandError) as refused:
        _backup(tmp_path)

    assert f"MEMORY_PG_DUMP={old_dump}" in str(refused.value)
    assert "older than this server" in str(refused.value)
