"""Backup and restore on PostgreSQL (pg_dump / pg_restore of the same build, tests/on_postgres.py):
what was erased after the backup stays erased, in the rows and in the table files."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection

from facts import privacy
from facts.models import MemoryUser
from memory_service import checks
from memory_service.backup import manifest as manifests
from memory_service.db import journal
from memory_service.db.postgresql_urls import url_of
from tests.db_files import postgres_data_files
from tests.facts.dashboard_helpers import seed_everything
from tests.facts.test_backup_restore import STAFF, erase_after_a_backup_then_restore

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


def test_the_journal_can_live_in_a_postgresql_database_every_host_reaches(alice, settings):
    name = f"journal_{uuid.uuid4().hex[:8]}"
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE DATABASE {name}")
    try:
        settings.MEMORY_ERASURE_JOURNAL = url_of(connection.settings_dict, name)
        seed_everything(alice.tenant, "victim")
        privacy.user_erase(user=MemoryUser.objects.get(external_id="victim"), actor=STAFF)

        [entry] = journal.entries_after(0)
        assert (entry.kind, entry.tenant_id) == (journal.USER, str(alice.tenant.pk))
        assert journal.matches_user(tenant_id=alice.tenant.pk, external_id="victim", key=entry.user_key)
        assert checks.erasure_journal_warnings("postgresql", settings.MEMORY_ERASURE_JOURNAL) == []
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP DATABASE {name} WITH (FORCE)")
