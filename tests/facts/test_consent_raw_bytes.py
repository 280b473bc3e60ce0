"""A withheld turn's words never reach the database files (issue 37): not the table, not
the recall index, not the WAL. Needs real commits (the index is written after commit), so it
runs outside the per-test transaction; about SQLite's files, so SQLite only (the column
checks of tests/facts/extraction/test_consent_turns.py run on both engines)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db import connection

from facts.models import Turn
from recall import indexer
from tests.base import ApiClient
from tests.db_files import file_bytes

pytestmark = [pytest.mark.sqlite_only, pytest.mark.django_db(transaction=True)]


def _files() -> bytes:
    name = Path(connection.settings_dict["NAME"])
    return b"".join(file_bytes(Path(f"{name}{suffix}")) for suffix in ("", "-wal"))


def test_a_withheld_turns_words_are_in_no_database_file_while_a_remembered_ones_are(alice):
    api = ApiClient(alice.raw_key)
    kept = api.post("/users/u1/turns", {"session_id": "s1", "user_input": "I adopted a dog named Plumquist."})
    withheld = api.post(
        "/users/u1/turns",
        {"session_id": "s1", "user_input": "I adopted a cat named Zorvathine.", "remember": False},
    )
    asked = api.post("/users/u1/turns", {"session_id": "s2", "user_input": "Off the record: I owe Krumwelder money."})
    assert kept.status_code == withheld.status_code == asked.status_code == 202
    assert withheld.json()["remembered"] is False and asked.json()["reason"] == "asked"
    indexer.index_items([], list(Turn.objects.values_list("pk", flat=True)))
    files = _files()
    assert b"Plumquist" in files, "the scan cannot see a remembered turn's words"
    for word in (b"Zorvathine", b"Krumwelder"):
        # FTS5 prefix-compresses its terms: the tail alone is looked for too.
        assert word not in files and word[-6:].lower() not in files.lower(), word
