"""PostgreSQL: vectors in pgvector `vector` columns, an exact scan of one user's rows.

The index on (user_id, model) finds the user's rows and `<=>` (cosine distance,
1 - cosine similarity, as sqlite-vec's vec_distance_cosine) ranks them, so a
recall costs that user's row count whatever the table holds, and recall@10 is
that of an exact search (no approximate index).
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import numpy as np
from django.db import connection

from facts.replicas import reader
from recall.engines import portable
from recall.engines.postgresql.people import naming_people
from recall.tables import FACTS, Tables


def _literal(vector: bytes | memoryview | np.ndarray | list[float]) -> str:
    """pgvector's text form of a float32 vector (blob bytes or an array)."""
    values = np.frombuffer(vector, dtype=np.float32) if isinstance(vector, bytes | memoryview) else vector
    return "[" + ",".join(f"{float(v):.9g}" for v in np.asarray(values, dtype=np.float32)) + "]"


def upsert(rows: Iterable[tuple[int, int, str, str, bytes]], t: Tables = FACTS) -> int:
    """(id, user_id, model, text_hash, float32 blob) rows."""
    rows = list(rows)
    if rows:
        with connection.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO {t.vector}({t.id}, user_id, model, text_hash, embedding) "
                "VALUES (%s, %s, %s, %s, %s::vector) "
                # The key holds the partition key (recall/engines/postgresql/ddl.py); a row's
                # owner never changes, so the conflict is on both.
                f"ON CONFLICT (user_id, {t.id}) DO UPDATE SET model = EXCLUDED.model, "
                "text_hash = EXCLUDED.text_hash, embedding = EXCLUDED.embedding",
                [(i, user, model, digest, _literal(blob)) for i, user, model, digest, blob in rows],
            )
    return len(rows)


def delete(ids: Iterable[int], t: Tables = FACTS, *, users: Iterable[int] | None = None) -> int:
    """`users`: the rows' people, when known (then only their partitions are planned and probed)."""
    ids = [int(i) for i in ids]
    if not ids:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(*naming_people(f"DELETE FROM {t.vector} WHERE {t.id} = ANY(%s)", [ids], users))
        return int(cursor.rowcount)


def indexed(ids: Iterable[int], t: Tables = FACTS, *, users: Iterable[int] | None = None) -> dict[int, tuple[str, str]]:
    """id -> (model, text_hash) for the ids that have a vector; with `users` (the items' people)
    only their partitions are planned and read."""
    ids = [int(i) for i in ids]
    if not ids:
        return {}
    sql = f"SELECT {t.id}, model, text_hash FROM {t.vector} WHERE {t.id} = ANY(%s)"
    with connection.cursor() as cursor:
        cursor.execute(*naming_people(sql, [ids], users))
        return {row[0]: (row[1], row[2]) for row in cursor.fetchall()}


def vectors(ids: Iterable[int], t: Tables = FACTS, *, user_id: int | None = None) -> dict[int, np.ndarray]:
    ids = [int(i) for i in ids]
    if not ids:
        return {}
    # With the user named, the read is planned and run over that user's partition, not all of them.
    sql = f"SELECT {t.id}, embedding::text FROM {t.vector} WHERE {t.id} = ANY(%s)"
    with reader().cursor() as cursor:
        cursor.execute(*naming_people(sql, [ids], None if user_id is None else [user_id]))
        return {row[0]: np.asarray(json.loads(row[1]), dtype=np.float32) for row in cursor.fetchall()}


def search(
    user_id: int,
    query_vector: np.ndarray | list[float],
    limit: int,
    model: str,
    t: Tables = FACTS,
    expect: tuple[str, str, bool] | None = None,
) -> list[tuple[int, float]]:
    """The user's nearest documents by cosine distance: [(id, distance)]; none when `expect` is
    given and the embedder switch no longer says it (portable.SWITCH_UNCHANGED)."""
    check, check_params = portable.switch_params(expect)
    with reader().cursor() as cursor:
        cursor.execute(
            f"SELECT {t.id}, embedding <=> %s::vector AS distance FROM {t.vector} "
            f"WHERE user_id = %s AND model = %s{check} ORDER BY distance, {t.id} LIMIT %s",
            [_literal(query_vector), user_id, model, *check_params, limit],
        )
        return [(row[0], float(row[1])) for row in cursor.fetchall()]


# The same SQL on both engines (recall/engines/portable.py).
delete_user = portable.delete_user_vectors
count_user = portable.count_user_vectors
total_rows = portable.total_vectors
all_ids = portable.all_vector_ids
