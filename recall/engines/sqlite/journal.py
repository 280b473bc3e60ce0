"""SQLite: the erasure journal in a file of its own (core/db/journal.py; MEMORY_ERASURE_JOURNAL
a file path or sqlite:///path)."""

from __future__ import annotations

import sqlite3  # sqlean, installed as sqlite3 by core.sqlite_driver
from pathlib import Path

from core.private_files import private_database

URL_SCHEMES = ("sqlite:///",)

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS erasure_journal (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, "
    "tenant_id TEXT NOT NULL, user_pk BIGINT, user_key TEXT NOT NULL DEFAULT '', receipt_id BIGINT, "
    "fact_uuids TEXT NOT NULL DEFAULT '[]', recorded_at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS erasure_journal_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
)
LEGACY_KEY_TABLE = "SELECT name FROM sqlite_schema WHERE type = 'table' AND name = 'erasure_journal_key'"
WRITE_LOCK = "BEGIN IMMEDIATE"


def connect(where: str) -> tuple[sqlite3.Connection, str]:
    """The journal's file (made private, created on first use) and its placeholder."""
    path = Path(where.removeprefix(URL_SCHEMES[0]))
    path.parent.mkdir(parents=True, exist_ok=True)
    private_database(path)
    conn = sqlite3.connect(str(path), timeout=30)
    conn.execute("PRAGMA synchronous=FULL")
    # What is deleted (a key moved out) is overwritten, not left in free pages.
    conn.execute("PRAGMA secure_delete=ON")
    return conn, "?"
