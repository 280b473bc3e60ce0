"""SQLite: raw SQL over a vector table (recall_vector, or recall_episode_vector with `t=EPISODES`):
float32 blobs, exact per-user scan.

A user's vectors are found through the index on user_id and ranked with
sqlite-vec's vec_distance_cosine, so the cost is that user's row count,
whatever the table holds (docs/measurements.md: ~0.5 ms at 1M rows).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from django.db import connection

from recall.engines import portable
from recall.tables import FACTS, Tables


def upsert(rows: Iterable[tuple[int, int, str, str, bytes]], t: Tables = FACTS) -> int:
    """(fact_id, user_id, model, text_hash, float32 blob) rows."""
    rows = list(rows)
    if rows:
        with connection.cursor() as cursor:
            cursor.executemany(
                f"INSERT OR REPLACE INTO {t.vector}({t.id}, user_id, model, text_hash, embedding) "
                "VALUES (%s, %s, %s, %s, %s)",
                rows,
            )
    return len(rows)


def delete(ids: Iterable[int], t: Tables = FACTS, *, users: Iterable[int] | None = None) -> int:
    """`users`: ignored (SQLite's tables are not partitioned)."""
    keys = [(int(i),) for i in ids]
    removed = 0
    with connection.cursor() as cursor:
        for row in keys:
            cursor.execute(f"DELETE FROM {t.vector} WHERE {t.id} = %s", row)
            removed += cursor.rowcount
    return removed


def indexed(ids: Iterable[int], t: Tables = FACTS, *, users: Iterable[int] | None = None) -> dict[int, tuple[str, str]]:
    """fact_id -> (model, text_hash) for the ids that have a vector (`users`: not partitioned here)."""
    found: dict[int, tuple[str, str]] = {}
    with connection.cursor() as cursor:
        for fid in ids:
            cursor.execute(f"SELECT model, text_hash FROM {t.vector} WHERE {t.id} = %s", [int(fid)])
            row = cursor.fetchone()
            if row:
                found[int(fid)] = (row[0], row[1])
    return found


def vectors(ids: Iterable[int], t: Tables = FACTS, *, user_id: int | None = None) -> dict[int, np.ndarray]:
    # user_id is for PostgreSQL's partitions; each read here is by primary key already.
    found: dict[int, np.ndarray] = {}
    with connection.cursor() as cursor:
        for fid in ids:
            cursor.execute(f"SELECT embedding FROM {t.vector} WHERE {t.id} = %s", [int(fid)])
            row = cursor.fetchone()
            if row:
                found[int(fid)] = np.frombuffer(row[0], dtype=np.float32)
    return found


def search(
    user_id: int,
    query_vector: np.ndarray | list[float],
    limit: int,
    model: str,
    t: Tables = FACTS,
    expect: tuple[str, str, bool] | None = None,
) -> list[tuple[int, float]]:
    """The user's nearest facts by cosine distance: [(fact_id, distance)]; none when `expect` is
    given and the embedder switch no longer says it (portable.SWITCH_UNCHANGED)."""
    check, check_params = portable.switch_params(expect)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {t.id}, vec_distance_cosine(embedding, %s) AS distance FROM {t.vector} "
            f"WHERE user_id = %s AND model = %s{check} ORDER BY distance LIMIT %s",
            [np.asarray(query_vector, dtype=np.float32).tobytes(), user_id, model, *check_params, limit],
        )
        return [(row[0], row[1]) for row in cursor.fetchall()]


# The same SQL on both engines (recall/engines/portable.py).
delete_user = portable.delete_user_vectors
count_user = portable.count_user_vectors
total_rows = portable.total_vectors
all_ids = portable.all_vector_ids
