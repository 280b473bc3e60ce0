"""The vector index of the engine in use: recall/engines/<engine>/vec.py.

Every function has the same signature and meaning on each engine
(recall/engines/index.py, `VectorIndex`); vectors go in as float32 blobs (to_blob) and come out as numpy
arrays, and search returns [(id, cosine distance)], nearest first.

Each side has two vector tables, one serving recall (recall/switch.py): given FACTS or
EPISODES, reads and writes go to the live one; a slot's own table set (slots.slot_tables)
is used as given. Deletes go to both, so a forgotten or erased document leaves no vector in
the slot that is being built or keeps the previous model's.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import numpy as np

from recall import slots
from recall.engines import current
from recall.engines.index import VectorRow
from recall.tables import FACTS, Tables

log = logging.getLogger(__name__)


def to_blob(vector: np.ndarray | list[float]) -> bytes:
    return np.asarray(vector, dtype=np.float32).tobytes()


def _live(t: Tables) -> Tables:
    if t.slot:
        return t  # a slot's table set, named by the caller
    return slots.state().live_tables(t)


def _both(t: Tables) -> list[Tables]:
    return [slots.slot_tables(t, slot) for slot in ("a", "b")]


def upsert(rows: Iterable[VectorRow], t: Tables = FACTS) -> int:
    """Rows of the live model go to the live slot, rows of the model being built to the other;
    a row of any other model (computed before a switch, written after it) is left out, so it
    never replaces the vector of the model recall serves."""
    rows = list(rows)
    if t.slot or not rows:
        return int(current().vec.upsert(rows, t))
    now = slots.state()
    live = [r for r in rows if r[2] == now.live_model]
    building = [r for r in rows if now.building_model and r[2] == now.building_model]
    if len(live) + len(building) < len(rows):
        log.info(
            "%d vectors of a model recall no longer serves were not written", len(rows) - len(live) - len(building)
        )
    written = int(current().vec.upsert(live, now.live_tables(t)))
    return written + int(current().vec.upsert(building, now.other_tables(t)))


def delete(ids: Iterable[int], t: Tables = FACTS, *, users: Iterable[int] | None = None) -> int:
    """`users`: the rows' people, when known (PostgreSQL then plans their partitions only)."""
    ids, users = list(ids), None if users is None else list(users)
    return sum(int(current().vec.delete(ids, table, users=users)) for table in _both(t))


def delete_user(user_id: int, t: Tables = FACTS) -> int:
    return sum(int(current().vec.delete_user(user_id, table)) for table in _both(t))


def count_user(user_id: int, t: Tables = FACTS) -> int:
    """Both slots: what delete_user would remove (the erase preview)."""
    return sum(int(current().vec.count_user(user_id, table)) for table in _both(t))


def indexed(ids: Iterable[int], t: Tables = FACTS, *, users: Iterable[int] | None = None) -> dict[int, tuple[str, str]]:
    """`users`: the items' people, when known (PostgreSQL then reads their partitions only)."""
    return current().vec.indexed(ids, _live(t), users=users)


def vectors(ids: Iterable[int], t: Tables = FACTS, *, user_id: int | None = None) -> dict[int, np.ndarray]:
    """`user_id`: the ids are all that user's, so PostgreSQL reads only the user's partition."""
    return current().vec.vectors(ids, _live(t), user_id=user_id)


def search(
    user_id: int,
    query_vector: np.ndarray | list[float],
    limit: int,
    model: str,
    t: Tables = FACTS,
    expect: tuple[str, str, bool] | None = None,
) -> list[tuple[int, float]]:
    """`expect`: (live slot, live model, whether a store without a switch row serves them): the
    search returns nothing unless the switch still says so, in the same statement."""
    return current().vec.search(user_id, query_vector, limit, model, _live(t), expect)


def total_rows(t: Tables = FACTS) -> int:
    return int(current().vec.total_rows(_live(t)))


def all_ids(t: Tables = FACTS) -> list[int]:
    return current().vec.all_ids(_live(t))
