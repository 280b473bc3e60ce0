"""After an erase the user's text is nowhere in the database files (docs/design.md §8).

Needs real commits (the recall index fills after commit, the checkpoint runs
after commit), so this test runs outside the per-test transaction.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db import connection

from facts import privacy, services
from facts.models import MemoryUser, Turn
from recall import indexer
from tests.db_files import file_bytes
from tests.facts.dashboard_helpers import seed_everything

# About SQLite's own files and build; tests/facts/test_privacy_raw_bytes_postgresql.py reads PostgreSQL's.
pytestmark = pytest.mark.sqlite_only


def _database_bytes() -> dict[str, bytes]:
    name = Path(connection.settings_dict["NAME"])
    files = {}
    for suffix in ("", "-wal", "-shm"):
        path = Path(f"{name}{suffix}")
        if path.exists():
            files[path.name] = file_bytes(path)
    return files


def _needles(markers: dict[str, str]) -> dict[str, list[bytes]]:
    # The whole marker, plus its last 8 characters: FTS5 prefix-compresses the
    # terms of its index, so a term may be stored without its first bytes.
    return {kind: [m.encode(), m[-8:].encode()] for kind, m in markers.items()}


def _where(files: dict[str, bytes], needle: bytes) -> list[str]:
    return [f"{name}:{data.count(needle)}" for name, data in files.items() if needle in data]


@pytest.mark.django_db(transaction=True)
def test_it_leaves_no_byte_of_the_erased_users_text_in_the_database_file_or_its_wal(alice):
    victim_markers = seed_everything(alice.tenant, "victim")
    bystander_markers = seed_everything(alice.tenant, "bystander")
    victim = MemoryUser.objects.get(tenant=alice.tenant, external_id="victim")
    # Their turns are episodes too (docs/design.md §10): their words sit in the episode index.
    indexer.index_items([], list(Turn.objects.values_list("pk", flat=True)))

    before = _database_bytes()
    # The scan must be able to see the text, or an empty result would prove nothing.
    for kind, needles in _needles(victim_markers).items():
        assert _where(before, needles[0]), f"{kind} marker not written before the erase"

    receipt = privacy.user_erase(user=victim, actor=services.Actor("staff", "ines"))
    assert receipt.counts["facts"] >= 4 and receipt.counts["turns"] == 1
    # The recall index was filled after commit and its rows went with the user.
    assert receipt.counts.get("fts_rows", 0) > 0
    assert receipt.counts.get("episode_rows", 0) == 1 and receipt.counts.get("episode_vectors", 0) == 1

    after = _database_bytes()
    assert after, "no database file found"
    leaks = {
        f"{kind}:{needle.decode()}": _where(after, needle)
        for kind, needles in _needles(victim_markers).items()
        for needle in needles
        if _where(after, needle)
    }
    assert leaks == {}, f"erased text still in the files: {leaks}"
    for kind, needles in _needles(bystander_markers).items():
        assert _where(after, needles[0]), f"the other user's {kind} text is gone too"
    wal = Path(f"{connection.settings_dict['NAME']}-wal")
    assert not wal.exists() or wal.stat().st_size == 0, "the WAL was not checkpointed and truncated"


@pytest.mark.django_db(transaction=True)
def test_a_forgotten_fact_leaves_no_byte_of_its_text_in_the_files_profiles_included(alice):
    from profiles.models import Profile
    from profiles.services import profile_refresh
    from tests.facts.dashboard_helpers import marker

    kept_markers = seed_everything(alice.tenant, "keeper")
    user = MemoryUser.objects.get(tenant=alice.tenant, external_id="keeper")
    secret = marker("forgotten")
    fact = services.fact_store(
        user=user, text=f"User is treated for {secret} weekly.", actor=services.SYSTEM, category="health"
    ).fact
    profile = profile_refresh(user_pk=user.pk)
    assert secret in str(profile.data)
    before = _database_bytes()
    assert _where(before, secret.encode()), "the marker was not written before the forget"

    services.fact_forget(fact=fact, actor=services.Actor("api_key", "test:key"))

    after = _database_bytes()
    leaks = {needle.decode(): _where(after, needle) for needle in _needles({"f": secret})["f"] if _where(after, needle)}
    assert leaks == {}, f"forgotten text still in the files: {leaks}"
    assert Profile.objects.filter(user=user).exists(), "the profile versions themselves stay"
    assert _where(after, kept_markers["fact"].encode()), "the user's other facts are gone too"
    wal = Path(f"{connection.settings_dict['NAME']}-wal")
    assert not wal.exists() or wal.stat().st_size == 0, "the WAL was not checkpointed and truncated"
