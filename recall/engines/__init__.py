"""The storage-engine seam: one folder per engine, and the one function that picks the engine.

`sqlite/` (FTS5 and sqlite-vec, the embedded default) and `postgresql/` (a term table with
BM25 computed in SQL, pgvector, partitions and the compaction pass) each hold everything
that differs between the engines: the recall index's SQL (`fts.py`, `vec.py`, with the same
functions: index.py), how erased bytes leave the files (`scrub.py`, PostgreSQL's
`compactor.py`), ..., and in `engine.py` one object, ENGINE, that satisfies core.engine.Engine
and `StoreEngine` below (mypy checks both). SQL both engines run as it is is written once, in
portable.py. `current` picks the engine from settings.DATABASE_ENGINE (derived from
DATABASE_URL); recall's AppConfig.ready hands it to core.engine, through which the floors
below recall (core, facts) reach it. docs/design.md, "Engine seam", says how to add a third.
"""

from __future__ import annotations

from typing import Protocol

from django.conf import settings

from core.engine import Engine
from recall.engines.index import LexicalIndex, VectorIndex
from recall.engines.postgresql.engine import ENGINE as POSTGRESQL
from recall.engines.sqlite.engine import ENGINE as SQLITE


class StoreEngine(Engine, Protocol):
    """An engine as recall sees it: core's interface and the recall index."""

    @property
    def fts(self) -> LexicalIndex: ...

    @property
    def vec(self) -> VectorIndex: ...


ENGINES: dict[str, StoreEngine] = {SQLITE.name: SQLITE, POSTGRESQL.name: POSTGRESQL}


def current() -> StoreEngine:
    """The engine this service runs on: the only reading of settings.DATABASE_ENGINE outside
    the settings."""
    return ENGINES[settings.DATABASE_ENGINE]
