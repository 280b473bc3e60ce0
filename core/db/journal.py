"""The erasure journal: a record of every erasure that a restored backup cannot roll back.

A backup is a copy of the store at one moment. Restoring it would bring back everyone
erased and every fact forgotten after that moment, which the right to erasure forbids
(docs/deployment.md, "Backups and restore"). So every user erase, fact or key forget and
tenant deletion also appends an entry here, in a database of its own that no backup
copies and no restore replaces (MEMORY_ERASURE_JOURNAL: a SQLite file, by default
var/erasure-journal.sqlite3, or a postgresql:// URL that every host reaches; the SQL that
differs between the two is each engine's, recall/engines/<engine>/journal.py). `restore`
re-applies every entry made after its backup was taken (facts/erasure_replay.py).

An entry holds no personal data: the tenant id, the user's primary key and a keyed hash
of their external id (so a restore can check the row is the same person), the forgotten
facts' uuids or the withdrawn turns' primary keys, the receipt's id, the time. The hash's
key is derived from SECRET_KEY and is never stored in the journal, so the journal alone
cannot confirm that a given person was erased; the journal keeps only a short check
value of each key it was written with, so a restore without that key stops instead of
silently failing to match anyone.
A journal from before this rule held its own key: the first connection moves it out
(kept only wrapped under the current key) and drops the table (`_move_legacy_key`).

Entries are written once the erasure has committed (`transaction.on_commit`): a backup
notes the journal's last entry BEFORE it takes its snapshot, so an erasure that commits
after the snapshot always gets a later number.
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
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.crypto import salted_hmac

from core import engine
from core.engine import JournalDialect
from core.redact import mask_url

logger = logging.getLogger(__name__)

USER, FACTS, TURNS, TENANT = "user", "facts", "turns", "tenant"

_KEY_SALT = "memory_service.erasure-journal"
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
    # The forgotten facts' uuids; for a TURNS entry, the withdrawn turns' primary keys.
    fact_uuids: tuple[str, ...] = field(default_factory=tuple)
    recorded_at: str = ""


def location() -> str:
    return str(settings.MEMORY_ERASURE_JOURNAL)


class Unreachable(Exception):
    """The journal cannot be opened: a restore must not go ahead without it."""


class KeyMissing(Exception):
    """The journal holds entries keyed under a SECRET_KEY this process does not have."""


@contextlib.contextmanager
def _connect(where: str | None = None) -> Iterator[tuple[object, str]]:
    """A DB-API connection to the journal (created on first use) and its placeholder."""
    where = where or location()
    dialect = engine.journal_dialect(where)
    conn, mark = _open(where, dialect)
    try:
        cursor = conn.cursor()  # type: ignore[attr-defined]
        for statement in dialect.schema:
            cursor.execute(statement)
        _move_legacy_key(conn, mark, dialect)
        yield conn, mark
        conn.commit()  # type: ignore[attr-defined]
    finally:
        conn.close()  # type: ignore[attr-defined]


def _open(where: str, dialect: JournalDialect) -> tuple[object, str]:
    try:
        return dialect.connect(where)
    except Exception as exc:
        raise Unreachable(f"The erasure journal ({mask_url(where)}) cannot be opened: {exc}") from exc


# --- Keys -----------------------------------------------------------------------------


def _keys() -> list[bytes]:
    """This process's key (from SECRET_KEY) first, then those of SECRET_KEY_FALLBACKS."""
    secrets_ = [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]
    return [salted_hmac(_KEY_SALT, "user key", secret=s, algorithm="sha256").digest() for s in secrets_]


def _check_of(key: bytes) -> str:
    """A short value naming a key; it confirms nothing about anyone's id."""
    return hmac.new(key, b"erasure journal key check", hashlib.sha256).hexdigest()[:16]


def _wrapping(key: bytes) -> bytes:
    return hmac.new(key, b"erasure journal legacy key", hashlib.sha256).digest()


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b, strict=True))


def _note_key(cursor: Any, mark: str, key: bytes) -> None:
    cursor.execute(
        f"INSERT INTO erasure_journal_meta (name, value) VALUES ({mark}, '') ON CONFLICT (name) DO NOTHING",
        [f"key {_check_of(key)}"],
    )


def _meta(cursor: Any, mark: str, name: str) -> str | None:
    cursor.execute(f"SELECT value FROM erasure_journal_meta WHERE name = {mark}", [name])
    row = cursor.fetchone()
    return None if row is None else str(row[0])


def _move_legacy_key(conn: Any, mark: str, dialect: JournalDialect) -> None:
    """A journal written before the key left it: keep its name (identity) and its key, the
    latter only wrapped under this process's key (its entries' hashes need it), then drop it."""
    cursor = conn.cursor()
    cursor.execute(dialect.legacy_key_table)
    if cursor.fetchone() is None:
        return
    # Two processes may find it at once: the second waits, then finds it gone.
    cursor.execute(dialect.write_lock)
    cursor.execute(dialect.legacy_key_table)
    if cursor.fetchone() is None:
        return
    cursor.execute("SELECT secret FROM erasure_journal_key WHERE id = 1")
    if (row := cursor.fetchone()) is not None:
        legacy, key = bytes.fromhex(row[0]), _keys()[0]
        legacy_entry = {"wrapped": _xor(legacy, _wrapping(key)).hex(), "check": _legacy_check(legacy)}
        insert = f"INSERT INTO erasure_journal_meta (name, value) VALUES ({mark}, {mark}) ON CONFLICT (name) DO NOTHING"
        cursor.execute(insert, ["identity", _identity_of(legacy)])
        cursor.execute(insert, ["legacy", json.dumps(legacy_entry)])
        _note_key(cursor, mark, key)
    cursor.execute("DROP TABLE erasure_journal_key")
    logger.warning(
        "Moved the erasure journal's key out of the journal (it now derives from SECRET_KEY; "
        "docs/deployment.md, 'Backups and restore')."
    )


def _legacy_check(legacy: bytes) -> str:
    return hashlib.sha256(b"legacy key check:" + legacy).hexdigest()[:16]


def _identity_of(legacy: bytes) -> str:
    # How identity() named a journal while it held its key: a backup noted this.
    return hashlib.sha256(b"journal:" + legacy).hexdigest()[:16]


def _legacy_keys(cursor: Any, mark: str) -> list[bytes]:
    if (value := _meta(cursor, mark, "legacy")) is None:
        return []
    stored = json.loads(value)
    for key in _keys():
        legacy = _xor(bytes.fromhex(stored["wrapped"]), _wrapping(key))
        if _legacy_check(legacy) == stored["check"]:
            return [legacy]
    return []


def _user_hash(key: bytes, tenant_id: object, external_id: str) -> str:
    return hmac.new(key, f"{tenant_id}:{external_id}".encode(), hashlib.sha256).hexdigest()


def matches_user(*, tenant_id: object, external_id: str, key: str, where: str | None = None) -> bool:
    with _connect(where) as (conn, mark):
        keys = [*_keys(), *_legacy_keys(conn.cursor(), mark)]  # type: ignore[attr-defined]
    return any(hmac.compare_digest(_user_hash(k, tenant_id, external_id), key) for k in keys)


def check_keys(where: str | None = None) -> None:
    """KeyMissing unless this process has every key the journal's entries were written under."""
    with _connect(where) as (conn, _mark):
        cursor = conn.cursor()  # type: ignore[attr-defined]
        cursor.execute("SELECT name FROM erasure_journal_meta WHERE name LIKE 'key %' ORDER BY name")
        recorded = {row[0].removeprefix("key ") for row in cursor.fetchall()}
    missing = recorded - {_check_of(key) for key in _keys()}
    if missing:
        raise KeyMissing(
            f"The erasure journal holds entries written under a SECRET_KEY this service does not have "
            f"(key checks {sorted(missing)}): without it a restore cannot tell which users were erased. "
            "Set SECRET_KEY to that key, or list it in SECRET_KEY_FALLBACKS, and run restore again."
        )


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


def note_turns_withdrawn(*, tenant_id: object, user_pk: int, turn_pks: list[int]) -> None:
    if turn_pks:
        _after_commit(TURNS, tenant_id, user_pk=user_pk, fact_uuids=tuple(str(pk) for pk in sorted(turn_pks)))


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
        key = _keys()[0]
        user_hash = _user_hash(key, tenant_id, external_id) if external_id else ""
        with _connect() as (conn, mark):
            cursor = conn.cursor()  # type: ignore[attr-defined]
            _note_key(cursor, mark, key)
            cursor.execute(
                "INSERT INTO erasure_journal (kind, tenant_id, user_pk, user_key, receipt_id, fact_uuids, recorded_at)"
                f" VALUES ({', '.join([mark] * 7)})",
                [kind, str(tenant_id), user_pk, user_hash, receipt_id, json.dumps(list(fact_uuids)), _now()],
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
        cursor = conn.cursor()  # type: ignore[attr-defined]
        if (name := _meta(cursor, mark, "identity")) is None:
            # Made once, with the journal; of two processes making it at once the first one wins.
            cursor.execute(
                f"INSERT INTO erasure_journal_meta (name, value) VALUES ('identity', {mark}) "
                "ON CONFLICT (name) DO NOTHING",
                [secrets.token_hex(8)],
            )
            name = _meta(cursor, mark, "identity")
        return str(name)


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
