"""The lexical index of the engine in use: recall/engines/<engine>/fts.py.

Every function has the same signature and meaning on each engine (recall/engines/index.py,
`LexicalIndex`); search returns [(id, score)], lower is better, as FTS5's bm25() does.
"""

from __future__ import annotations

from collections.abc import Iterable

from recall.engines import current
from recall.engines.index import LexicalRow
from recall.tables import FACTS, Tables
from recall.weights import BODY_WEIGHT, CONTEXT_WEIGHT

__all__ = ["BODY_WEIGHT", "CONTEXT_WEIGHT"]


def upsert(rows: Iterable[LexicalRow], t: Tables = FACTS) -> int:
    return current().fts.upsert(rows, t)


def insert_new(rows: Iterable[LexicalRow], t: Tables = FACTS) -> int:
    return current().fts.insert_new(rows, t)


def delete(ids: Iterable[int], t: Tables = FACTS, *, users: Iterable[int] | None = None) -> int:
    """`users`: the rows' people, when known (PostgreSQL then plans their partitions only)."""
    return current().fts.delete(ids, t, users=users)


def delete_user(user_id: int, t: Tables = FACTS) -> int:
    return current().fts.delete_user(user_id, t)


def count_user(user_id: int, t: Tables = FACTS) -> int:
    return current().fts.count_user(user_id, t)


def indexed_hashes(ids: Iterable[int], t: Tables = FACTS, *, users: Iterable[int] | None = None) -> dict[int, str]:
    """`users`: the items' people, when known (PostgreSQL then reads their partitions only)."""
    return current().fts.indexed_hashes(ids, t, users=users)


def doc_frequencies(user_id: int, terms: list[str], t: Tables = FACTS) -> dict[str, int]:
    return current().fts.doc_frequencies(user_id, terms, t)


def search(user_id: int, terms: list[str], limit: int, t: Tables = FACTS) -> list[tuple[int, float]]:
    return current().fts.search(user_id, terms, limit, t)


def search_leaving_universal(
    user_id: int, terms: list[str], limit: int, min_facts: int, share: float, t: Tables = FACTS
) -> tuple[list[tuple[int, float]], list[str]]:
    return current().fts.search_leaving_universal(user_id, terms, limit, min_facts, share, t)


def all_ids(t: Tables = FACTS) -> list[int]:
    return current().fts.all_ids(t)


def total_rows(t: Tables = FACTS) -> int:
    return current().fts.total_rows(t)
