"""PostgreSQL: the lexical index as a term table, with BM25 computed in SQL.

PostgreSQL's own text search ranks without IDF (ts_rank), so the index keeps
what BM25 needs instead: one row per (user, stemmed term, document) with the
term's weighted frequency, body words 1.0 and context words CONTEXT_WEIGHT (the
column weights FTS5's bm25() is given on SQLite), and each document's length in
tokens. Terms are the words of recall.query.words, Porter-stemmed
(recall.query.stem), as FTS5's porter tokenizer stems them on SQLite.

A search reads only the asking user's rows (the primary key starts with
user_id) and scores them with FTS5's formula: idf = ln((N - df + 0.5) /
(df + 0.5)), at least 1e-6; tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avglen)),
k1 = 1.2, b = 0.75. N, df and the average length are the user's own (on SQLite
df is per user through the namespaced tokens, N and the average length are the
table's), so a recall costs what that user holds and no other user's data moves
its ranking. docs/recall.md, "On PostgreSQL", has the measured difference.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db import connection

from facts.replicas import reader
from recall.engines import portable
from recall.engines.postgresql.people import naming_people
from recall.query import stem, words
from recall.tables import FACTS, Tables
from recall.weights import BODY_WEIGHT, CONTEXT_WEIGHT

BM25_K1 = 1.2
BM25_B = 0.75


def _term_weights(body: str, context: str) -> tuple[dict[str, float], int]:
    """Stemmed term -> weighted frequency, and the document's length in tokens."""
    body_words, context_words = words(body), words(context)
    weights: defaultdict[str, float] = defaultdict(float)
    for word in body_words:
        weights[stem(word)] += BODY_WEIGHT
    for word in context_words:
        weights[stem(word)] += CONTEXT_WEIGHT
    return weights, len(body_words) + len(context_words)


def upsert(rows: Iterable[tuple[int, int, str, str, str]], t: Tables = FACTS) -> int:
    """(id, user_id, text_hash, body, context) rows; replaces what was indexed."""
    rows = list(rows)
    if not rows:
        return 0
    ids, users = [r[0] for r in rows], {r[1] for r in rows}
    with connection.cursor() as cursor:
        cursor.execute(*naming_people(f"DELETE FROM {t.fts} WHERE doc_id = ANY(%s)", [ids], users))
        cursor.execute(*naming_people(f"DELETE FROM {t.doc} WHERE {t.id} = ANY(%s)", [ids], users))
    return insert_new(rows, t)


def insert_new(rows: Iterable[tuple[int, int, str, str, str]], t: Tables = FACTS) -> int:
    """Like upsert, for rows known to be absent (bulk builds): no delete first."""
    rows = list(rows)
    postings, docs = [], []
    for doc_id, user_id, digest, body, context in rows:
        weights, length = _term_weights(body, context)
        postings += [(user_id, term, doc_id, tf) for term, tf in weights.items()]
        docs.append((doc_id, user_id, digest, length))
    if not docs:
        return 0
    # One statement each, the rows as arrays: executemany sent a statement per term row, and
    # adapting each row's parameters was a tenth of a `db` worker's CPU per turn (issue 36).
    with connection.cursor() as cursor:
        if postings:
            cursor.execute(
                f"INSERT INTO {t.fts}(user_id, term, doc_id, tf) "
                "SELECT * FROM unnest(%s::bigint[], %s::text[], %s::bigint[], %s::float8[])",
                [list(column) for column in zip(*postings, strict=True)],
            )
        cursor.execute(
            f"INSERT INTO {t.doc}({t.id}, user_id, text_hash, length) "
            "SELECT * FROM unnest(%s::bigint[], %s::bigint[], %s::text[], %s::integer[])",
            [list(column) for column in zip(*docs, strict=True)],
        )
    return len(rows)


def delete(ids: Iterable[int], t: Tables = FACTS, *, users: Iterable[int] | None = None) -> int:
    """`users`: the rows' people, when known (then only their partitions are planned and probed)."""
    ids = [int(i) for i in ids]
    if not ids:
        return 0
    users = None if users is None else list(users)
    with connection.cursor() as cursor:
        cursor.execute(*naming_people(f"DELETE FROM {t.fts} WHERE doc_id = ANY(%s)", [ids], users))
        cursor.execute(*naming_people(f"DELETE FROM {t.doc} WHERE {t.id} = ANY(%s)", [ids], users))
        return int(cursor.rowcount)


def delete_user(user_id: int, t: Tables = FACTS) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {t.fts} WHERE user_id = %s", [user_id])
        cursor.execute(f"DELETE FROM {t.doc} WHERE user_id = %s", [user_id])
        return int(cursor.rowcount)


def indexed_hashes(ids: Iterable[int], t: Tables = FACTS, *, users: Iterable[int] | None = None) -> dict[int, str]:
    """id -> text hash of the ids indexed; with `users` (the items' people) only their partitions
    are planned and read."""
    ids = [int(i) for i in ids]
    if not ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(*naming_people(f"SELECT {t.id}, text_hash FROM {t.doc} WHERE {t.id} = ANY(%s)", [ids], users))
        return {row[0]: row[1] for row in cursor.fetchall()}


def _stems(terms: list[str]) -> dict[str, str]:
    return {term: stem(term) for term in terms if term.isalnum()}


def doc_frequencies(user_id: int, terms: list[str], t: Tables = FACTS) -> dict[str, int]:
    """How many of the user's indexed documents contain each term."""
    stems = _stems(terms)
    if not stems:
        return {}
    with reader().cursor() as cursor:
        cursor.execute(
            f"SELECT term, count(*) FROM {t.fts} WHERE user_id = %s AND term = ANY(%s) GROUP BY term",
            [user_id, list(set(stems.values()))],
        )
        counts = dict(cursor.fetchall())
    return {term: counts.get(stemmed, 0) for term, stemmed in stems.items()}


# Every read names the user on each index table, the join too: the planner then opens that
# user's partition only (recall/engines/postgresql/ddl.py), which no compaction of another
# user's slice locks.
SEARCH = """
WITH stats AS (
    SELECT count(*)::float8 AS n, greatest(coalesce(avg(length), 1), 1)::float8 AS avglen
    FROM {doc} WHERE user_id = %(user)s
),
hits AS (
    SELECT doc_id, tf, count(*) OVER (PARTITION BY term)::float8 AS df
    FROM {fts} WHERE user_id = %(user)s AND term = ANY(%(terms)s)
)
SELECT h.doc_id,
       -sum(greatest(ln((s.n - h.df + 0.5) / (h.df + 0.5)), 1e-6)
            * h.tf * (%(k1)s + 1) / (h.tf + %(k1)s * (1 - %(b)s + %(b)s * d.length / s.avglen))) AS score
FROM hits h
JOIN {doc} d ON d.user_id = %(user)s AND d.{id} = h.doc_id
CROSS JOIN stats s
GROUP BY h.doc_id
ORDER BY score, h.doc_id
LIMIT %(limit)s
"""


def search(user_id: int, terms: list[str], limit: int, t: Tables = FACTS) -> list[tuple[int, float]]:
    """BM25 over the user's terms: [(id, score)], lower is better (FTS5's sign)."""
    stems = sorted(set(_stems(terms).values()))
    if not stems:
        return []
    params: dict[str, Any] = {"user": user_id, "terms": stems, "k1": BM25_K1, "b": BM25_B, "limit": limit}
    with reader().cursor() as cursor:
        cursor.execute(SEARCH.format(doc=t.doc, fts=t.fts, id=t.id), params)
        return [(row[0], float(row[1])) for row in cursor.fetchall()]


# One round trip for the whole lexical side (recall.sides.lexical_live): each query term's
# document frequency and the user's document count decide which terms are universal (in more
# than `share` of at least `min_facts` documents; recall.rules.universal_terms, the same rule),
# and BM25 ranks over the others. The dropped terms come back as rows without a document.
SEARCH_LEAVING_UNIVERSAL = """
WITH stats AS (
    SELECT count(*)::float8 AS n, greatest(coalesce(avg(length), 1), 1)::float8 AS avglen
    FROM {doc} WHERE user_id = %(user)s
),
hits AS (
    SELECT doc_id, term, tf, count(*) OVER (PARTITION BY term)::float8 AS df
    FROM {fts} WHERE user_id = %(user)s AND term = ANY(%(terms)s)
),
dfs AS (SELECT DISTINCT term, df FROM hits),
universal AS (
    SELECT d.term FROM dfs d CROSS JOIN stats s WHERE s.n >= %(min_facts)s AND d.df > %(share)s * s.n
),
dropped AS (
    SELECT term FROM universal WHERE (SELECT count(*) FROM universal) < (SELECT count(*) FROM dfs)
),
ranked AS (
    SELECT h.doc_id,
           -sum(greatest(ln((s.n - h.df + 0.5) / (h.df + 0.5)), 1e-6)
                * h.tf * (%(k1)s + 1) / (h.tf + %(k1)s * (1 - %(b)s + %(b)s * d.length / s.avglen))) AS score
    FROM hits h
    JOIN {doc} d ON d.user_id = %(user)s AND d.{id} = h.doc_id
    CROSS JOIN stats s
    WHERE h.term NOT IN (SELECT term FROM dropped)
    GROUP BY h.doc_id
    ORDER BY score, h.doc_id
    LIMIT %(limit)s
)
SELECT doc_id, score, NULL FROM ranked
UNION ALL
SELECT NULL, NULL, term FROM dropped
"""


def search_leaving_universal(
    user_id: int, terms: list[str], limit: int, min_facts: int, share: float, t: Tables = FACTS
) -> tuple[list[tuple[int, float]], list[str]]:
    """BM25 over the user's terms less the universal ones, and those (as given, sorted)."""
    stems = _stems(terms)
    if not stems:
        return [], []
    params: dict[str, Any] = {
        "user": user_id,
        "terms": sorted(set(stems.values())),
        "k1": BM25_K1,
        "b": BM25_B,
        "limit": limit,
        "min_facts": min_facts,
        "share": share,
    }
    with reader().cursor() as cursor:
        cursor.execute(SEARCH_LEAVING_UNIVERSAL.format(doc=t.doc, fts=t.fts, id=t.id), params)
        rows = cursor.fetchall()
    hits = sorted(((row[0], float(row[1])) for row in rows if row[0] is not None), key=lambda h: (h[1], h[0]))
    dropped = {row[2] for row in rows if row[0] is None}
    return hits, sorted(term for term, stemmed in stems.items() if stemmed in dropped)


# The same SQL on both engines (recall/engines/portable.py).
count_user = portable.count_user_documents
total_rows = portable.total_documents
all_ids = portable.all_document_ids
