"""PostgreSQL: the erasure journal in a database of its own that every host reaches
(core/db/journal.py; MEMORY_ERASURE_JOURNAL a postgresql:// URL)."""

from __future__ import annotations

import psycopg

URL_SCHEMES = ("postgresql://", "postgres://")

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS erasure_journal (seq BIGSERIAL PRIMARY KEY, kind TEXT NOT NULL, "
    "tenant_id TEXT NOT NULL, user_pk BIGINT, user_key TEXT NOT NULL DEFAULT '', receipt_id BIGINT, "
    "fact_uuids TEXT NOT NULL DEFAULT '[]', recorded_at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS erasure_journal_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
)
LEGACY_KEY_TABLE = "SELECT 1 FROM pg_tables WHERE tablename = 'erasure_journal_key' AND schemaname = current_schema()"
WRITE_LOCK = "SELECT pg_advisory_xact_lock(7330033)"


def connect(where: str) -> tuple[psycopg.Connection, str]:
    return psycopg.connect(where, autocommit=False), "%s"
