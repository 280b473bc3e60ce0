"""The lexical index of the engine in use: recall/engines/<engine>/fts.py.

Every function (upsert, insert_new, delete, delete_user, count_user,
indexed_hashes, doc_frequencies, search, all_ids, total_rows) has the same
signature and meaning on each engine; search returns [(id, score)], lower is
better, as FTS5's bm25() does.
"""

from __future__ import annotations

from typing import Any

from recall.engines import part
from recall.weights import BODY_WEIGHT, CONTEXT_WEIGHT

__all__ = ["BODY_WEIGHT", "CONTEXT_WEIGHT"]


def __getattr__(name: str) -> Any:
    return getattr(part("fts"), name)
