"""The vector index of the engine in use: recall/engines/<engine>/vec.py.

Every function (upsert, delete, delete_user, count_user, indexed, vectors,
search, all_ids, total_rows) has the same signature and meaning on each
engine; vectors go in as float32 blobs (to_blob) and come out as numpy
arrays, and search returns [(id, cosine distance)], nearest first.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from recall.engines import part


def to_blob(vector) -> bytes:
    return np.asarray(vector, dtype=np.float32).tobytes()


def __getattr__(name: str) -> Any:
    return getattr(part("vec"), name)
