"""The erasure journal: a record of every erasure that a restored backup cannot roll back.

A backup is a copy of the store at one moment. Restoring it would bring back everyone
erased and every fact forgotten after that moment, which the right to erasure forbids
(docs/deployment.md, "Backups and restore"). So every user erase, fact or key forget and
tenant deletion also appends an entry here, in a database of its own that no backup
copies and no restore replaces (MEMORY_ERASURE_JOURNAL: a SQLite file, by default
var/erasure-journal.sqlite3, or a postgresql:// URL that every host reaches). `restore`
re-applies every entry made after its backup was taken (facts/erasure_replay.py).

An entry holds no personal data: the tenant id, the user's primary key and a keyed hash
of their external id (so a restore can check the row is the same person; the key is
generated with the journal and never leaves it), the forgotten facts' uuids, the
receipt's id, the time. Entries are written once the erasure has committed
(`transaction.on_commit`): a backup notes the journal's last entry BEFORE it takes its
snapshot, so an erasure that commits after the snapshot always gets a later number.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction

from memory_service.private_files import private_database

logger = logging.getLogger(__name__)

USER, FACTS, TENANT = "user", "facts", "tenant"

_SCHEMA = {
    "sqlite": (
        "CREATE TABLE IF NOT EXISTS erasure_journal (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, "
        "tenant_id TEXT NOT NULL, user_pk BIGINT, user_key TEXT NOT NULL DEFAULT '', receipt_id BIGINT, "
        "fact_uuids TEXT NOT NULL DEFAULT '[]', recorded_at TEXT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS erasure_journal_key (id INTEGER PRIMARY KEY, secret TEXT NOT NULL)",
    ),
    "postgresql": (
        "CREATE TABLE IF NOT EXISTS erasure_journal (seq BIGSERIAL PRIMARY KEY, kind TEXT NOT NULL, "
        "tenant_id TEXT NOT NULL, user_pk BIGINT, user_key TEXT NOT NULL DEFAULT '', receipt_id BIGINT, "
        "fact_uuids TEXT NOT NULL DEFAULT '[]', recorded_at TEXT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS erasure_journal_key (id INTEGER PRIMARY KEY, secret TEXT NOT NULL)",
    ),
}
_COLUMNS = "seq, kind, tenant_id, user_pk, user_key, receipt_id, fact_uuids, recorded_at"

# Set while a restore re-applies entries (those erasures are already in the journal) and
# while a tenant's deletion erases its users (the tenant's entry covers them).
_paused: contextvars.ContextVar[bool] = contextvars.ContextVar("erasure_journal_paused", default=False)


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str
    tenant_id: str
    user_pk: int | None = None
    user_key: str = ""
    receipt_id: int | None = None
    fact_uuids: tuple[str, ...] = field(default_factory=tuple)
    recorded_at: str = ""


def location() -> str:
    return str(settings.MEMORY_ERASURE_JOURNAL)


# What MEMORY_ERASURE_JOURNAL may be besides a file path (memory_service/checks.py refuses others).
POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite:///"


def _engine(where: str) -> str:
    return "postgresql" if where.startswith(POSTGRESQL_SCHEMES) else "sqlite"


@contextlib.contextmanager
def _connect(where: str | None = None) -> Iterator[tuple[object, str]]:
    """A DB-API connection to the journal (created on first use) and its placeholder."""
    where = where or location()
    if _engine(where) == "postgresql":
        import psycopg

        conn: object = psycopg.connect(where, autocommit=False)
        mark = "%s"
    else:
        import sqlite3  # sqlean, installed as sqlite3 by memory_service.sqlite_driver

        path = Path(where.removeprefix(SQLITE_SCHEME))
        path.parent.mkdir(parents=True, exist_ok=True)
        private_database(path)
        conn = sqlite3.connect(str(path), timeout=30)
        conn.execute("PRAGMA synchronous=FULL")
        mark = "?"
    try:
        cursor = conn.cursor()  # type: ignore[attr-defined]
        for statement in _SCHEMA[_engine(where)]:
            cursor.execute(statement)
        yield conn, mark
        conn.commit()  # type: ignore[attr-defined]
    finally:
        conn.close()  # type: ignore[attr-defined]


def _secret(conn, mark: str) -> bytes:
    cursor = conn.cursor()
    cursor.execute("SELECT secret FROM erasure_journal_key WHERE id = 1")
    if (row := cursor.fetchone()) is None:
        # Made once, with the journal; of two processes making it at once the first one wins.
        cursor.execute(
            f"INSERT INTO erasure_journal_key (id, secret) VALUES (1, {mark}) ON CONFLICT (id) DO NOTHING",
            [secrets.token_hex(32)],
        )
        cursor.execute("SELECT secret FROM erasure_journal_key WHERE id = 1")
        row = cursor.fetchone()
    return bytes.fromhex(row[0])


def user_key(conn, mark: str, *, tenant_id: object, external_id: str) -> str:
    return hmac.new(_secret(conn, mark), f"{tenant_id}:{external_id}".encode(), hashlib.sha256).hexdigest()


def matches_user(*, tenant_id: object, external_id: str, key: str, where: str | None = None) -> bool:
    with _connect(where) as (conn, mark):
        return hmac.compare_digest(user_key(conn, mark, tenant_id=tenant_id, external_id=external_id), key)


@contextlib.contextmanager
def paused() -> Iterator[None]:
    token = _paused.set(True)
    try:
        yield
    finally:
        _paused.reset(token)


def note_user_erased(*, tenant_id: object, user_pk: int, external_id: str, receipt_id: int | None) -> None:
    _after_commit(USER, tenant_id, user_pk=user_pk, external_id=external_id, receipt_id=receipt_id)


def note_facts_forgotten(*, tenant_id: object, user_pk: int, fact_uuids: list[str]) -> None:
    if fact_uuids:
        _after_commit(FACTS, tenant_id, user_pk=user_pk, fact_uuids=tuple(fact_uuids))


def note_tenant_deleted(*, tenant_id: object) -> None:
    _after_commit(TENANT, tenant_id)


def _after_commit(kind: str, tenant_id: object, **values: Any) -> None:
    if _paused.get():
        return
    transaction.on_commit(functools.partial(_append, kind, tenant_id, **values))


def _append(
    kind: str,
    tenant_id: object,
    *,
    user_pk: int | None = None,
    external_id: str = "",
    receipt_id: int | None = None,
    fact_uuids: tuple[str, ...] = (),
) -> None:
    try:
        with _connect() as (conn, mark):
            key = user_key(conn, mark, tenant_id=tenant_id, external_id=external_id) if external_id else ""
            conn.cursor().execute(  # type: ignore[attr-defined]
                "INSERT INTO erasure_journal (kind, tenant_id, user_pk, user_key, receipt_id, fact_uuids, recorded_at)"
                f" VALUES ({', '.join([mark] * 7)})",
                [kind, str(tenant_id), user_pk, key, receipt_id, json.dumps(list(fact_uuids)), _now()],
            )
    except Exception:
        # The erasure has committed and stands; only a restore of an older backup could
        # bring it back. Say so loudly, with what an operator needs to redo it by hand.
        logger.critical(
            "Could not write the erasure journal (%s, tenant %s, user pk %s, %d facts); a restore of an "
            "older backup would bring this erasure back until it is repeated.",
            kind,
            tenant_id,
            user_pk,
            len(fact_uuids),
            exc_info=True,
        )


def _now() -> str:
    return datetime.now(UTC).isoformat()


def identity(where: str | None = None) -> str:
    """Names this journal: a journal made afresh (a lost file, another host's) has another."""
    with _connect(where) as (conn, mark):
        return hashlib.sha256(b"journal:" + _secret(conn, mark)).hexdigest()[:16]


def entries_since(moment: str, where: str | None = None) -> list[Entry]:
    """Entries recorded at or after `moment` (an ISO time in UTC, as `recorded_at`), oldest first."""
    return _entries("recorded_at >= {mark}", moment, where)


def last_seq(where: str | None = None) -> int:
    with _connect(where) as (conn, _mark):
        cursor = conn.cursor()  # type: ignore[attr-defined]
        cursor.execute("SELECT COALESCE(MAX(seq), 0) FROM erasure_journal")
        return int(cursor.fetchone()[0])


def entries_after(seq: int, where: str | None = None) -> list[Entry]:
    return _entries("seq > {mark}", seq, where)


def _entries(condition: str, value: object, where: str | None) -> list[Entry]:
    with _connect(where) as (conn, mark):
        cursor = conn.cursor()  # type: ignore[attr-defined]
        cursor.execute(
            f"SELECT {_COLUMNS} FROM erasure_journal WHERE {condition.format(mark=mark)} ORDER BY seq", [value]
        )
        rows = cursor.fetchall()
    return [
        Entry(
            seq=row[0],
            kind=row[1],
            tenant_id=row[2],
            user_pk=row[3],
            user_key=row[4],
            receipt_id=row[5],
            fact_uuids=tuple(json.loads(row[6])),
            recorded_at=row[7],
        )
        for row in rows
    ]
