"""The recall index's SQL, one package per database engine.

`sqlite/` (FTS5 and sqlite-vec, the embedded default) and `postgresql/` (a term
table with BM25 computed in SQL, and pgvector) each hold the whole story of
their index: `fts.py` for the lexical side, `vec.py` for the vectors, with the
same functions. The engine is chosen once, from settings.DATABASE_ENGINE
(derived from DATABASE_URL); recall.fts and recall.vec forward to it, so the
rest of the code never asks which engine it runs on.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from types import ModuleType

from django.conf import settings


@cache
def part(name: str) -> ModuleType:
    return import_module(f"recall.engines.{settings.DATABASE_ENGINE}.{name}")
