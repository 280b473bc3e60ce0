"""SQLite: raw SQL over an FTS5 index and its bookkeeping table: the facts' (recall_fts,
recall_doc) by default, the episodes' with `t=EPISODES` (recall.tables).

All statements are parameterised; MATCH strings come only from
recall.query.match_expression (quoted alphanumeric terms).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection

from recall.engines import portable
from recall.query import indexed_text, match_expression
from recall.rules import universal_terms
from recall.tables import FACTS, Tables
from recall.weights import BODY_WEIGHT, CONTEXT_WEIGHT


def upsert(rows: Iterable[tuple[int, int, str, str, str]], t: Tables = FACTS) -> int:
    """(fact_id, user_id, text_hash, body, context) rows; replaces what was indexed."""
    rows = list(rows)
    if not rows:
        return 0
    ids = [(r[0],) for r in rows]
    with connection.cursor() as cursor:
        cursor.executemany(f"DELETE FROM {t.fts} WHERE rowid = %s", ids)
        cursor.executemany(f"DELETE FROM {t.doc} WHERE {t.id} = %s", ids)
    return insert_new(rows, t)


def insert_new(rows: Iterable[tuple[int, int, str, str, str]], t: Tables = FACTS) -> int:
    """Like upsert, for rows known to be absent (bulk builds): no delete first."""
    rows = list(rows)
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {t.fts}(rowid, body, context) VALUES (%s, %s, %s)",
            [(fid, indexed_text(uid, body), indexed_text(uid, context)) for fid, uid, _, body, context in rows],
        )
        cursor.executemany(
            f"INSERT INTO {t.doc}({t.id}, user_id, text_hash) VALUES (%s, %s, %s)",
            [(fid, uid, digest) for fid, uid, digest, _, _ in rows],
        )
    return len(rows)


def delete(ids: Iterable[int], t: Tables = FACTS, *, users: Iterable[int] | None = None) -> int:
    """`users`: ignored (SQLite's tables are not partitioned)."""
    keys = [(int(i),) for i in ids]
    if not keys:
        return 0
    with connection.cursor() as cursor:
        present = 0
        for (fid,) in keys:
            cursor.execute(f"SELECT 1 FROM {t.doc} WHERE {t.id} = %s", [fid])
            present += cursor.fetchone() is not None
        cursor.executemany(f"DELETE FROM {t.fts} WHERE rowid = %s", keys)
        cursor.executemany(f"DELETE FROM {t.doc} WHERE {t.id} = %s", keys)
    return present


def delete_user(user_id: int, t: Tables = FACTS) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {t.id} FROM {t.doc} WHERE user_id = %s", [user_id])
        ids = [(row[0],) for row in cursor.fetchall()]
        cursor.executemany(f"DELETE FROM {t.fts} WHERE rowid = %s", ids)
        cursor.execute(f"DELETE FROM {t.doc} WHERE user_id = %s", [user_id])
    return len(ids)


# Ids per statement of indexed_hashes: well under SQLite's bound on parameters (32,766).
IDS_PER_READ = 500


def indexed_hashes(ids: Iterable[int], t: Tables = FACTS, *, users: Iterable[int] | None = None) -> dict[int, str]:
    """id -> text hash of the ids indexed: one statement per IDS_PER_READ ids (it was one per id;
    a recall over facts and episodes asks for its candidates' turns, recall.through_turns).
    `users` says nothing here: the SQLite tables are not partitioned."""
    ids = sorted({int(i) for i in ids})
    found: dict[int, str] = {}
    with connection.cursor() as cursor:
        for start in range(0, len(ids), IDS_PER_READ):
            chunk = ids[start : start + IDS_PER_READ]
            marks = ", ".join(["%s"] * len(chunk))
            cursor.execute(f"SELECT {t.id}, text_hash FROM {t.doc} WHERE {t.id} IN ({marks})", chunk)
            found.update((row[0], row[1]) for row in cursor.fetchall())
    return found


def _counts(user_id: int, terms: list[str], t: Tables, with_total: bool) -> tuple[dict[str, int], int | None]:
    """Each term's document frequency (per-user posting list length) and, `with_total`, the user's
    document count: one statement of scalar subqueries, not one per term and one more."""
    expressions = [(term, match_expression(user_id, [term])) for term in terms]
    matched = [(term, expression) for term, expression in expressions if expression]
    parts = [f"(SELECT count(*) FROM {t.fts} WHERE {t.fts} MATCH %s)" for _ in matched]
    params: list[str | int] = [expression for _, expression in matched]
    if with_total:
        parts.append(f"(SELECT COUNT(*) FROM {t.doc} WHERE user_id = %s)")
        params.append(user_id)
    if not parts:
        return {}, None
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(parts), params)
        row = cursor.fetchone()
    freqs = {term: int(count) for (term, _), count in zip(matched, row, strict=False)}
    return freqs, int(row[-1]) if with_total else None


def doc_frequencies(user_id: int, terms: list[str], t: Tables = FACTS) -> dict[str, int]:
    """How many of the user's indexed facts contain each term (per-user posting list length)."""
    return _counts(user_id, terms, t, with_total=False)[0]


def search(user_id: int, terms: list[str], limit: int, t: Tables = FACTS) -> list[tuple[int, float]]:
    """BM25 over the user's namespaced terms: [(fact_id, bm25 score, lower is better)]."""
    expression = match_expression(user_id, terms)
    if not expression:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT rowid, bm25({t.fts}, %s, %s) AS score FROM {t.fts} WHERE {t.fts} MATCH %s ORDER BY score LIMIT %s",
            [BODY_WEIGHT, CONTEXT_WEIGHT, expression, limit],
        )
        return [(row[0], row[1]) for row in cursor.fetchall()]


def search_leaving_universal(
    user_id: int, terms: list[str], limit: int, min_facts: int, share: float, t: Tables = FACTS
) -> tuple[list[tuple[int, float]], list[str]]:
    """BM25 over the user's terms less the universal ones, and those (as given, sorted). Two
    statements in this process (the counts, then BM25; no round trip); PostgreSQL's engine
    answers in one."""
    freqs, total = _counts(user_id, terms, t, with_total=True)
    present = [term for term in terms if freqs.get(term, 0) > 0]
    if not present:
        return [], []
    dropped = universal_terms(present, freqs, int(total or 0), min_facts, share)
    return search(user_id, [term for term in present if term not in dropped], limit, t), sorted(dropped)


# The same SQL on both engines (recall/engines/portable.py).
count_user = portable.count_user_documents
total_rows = portable.total_documents
all_ids = portable.all_document_ids
