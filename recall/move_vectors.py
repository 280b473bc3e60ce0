"""move_store's copy of the vector index: the source's vectors, not new ones.

Re-embedding a store on the target costs about 150 facts/s on 2 cores (docs/measurements.md
§13), most of a move's time, and with another model version would change what recall
answers. The vectors are engine-neutral (float32 arrays with their model and the hash of
the text they embed), so they are read here through the source's engine, written to a
file in the move's temporary folder, and written on the target through the target's
engine by the same command run there (`move_store --load-vectors`). A vector whose text
changed since (its hash differs) is embedded again by the index rebuild, as on any store.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from django.db import transaction

from facts.models import Fact, Turn
from recall import vec
from recall.tables import EPISODES, FACTS, Tables

SIDES: dict[str, tuple[Tables, type[Fact] | type[Turn]]] = {"facts": (FACTS, Fact), "episodes": (EPISODES, Turn)}
CHUNK = 5000


def export(path: Path, progress: Callable[[int], None] | None = None) -> int:
    """Write every vector of both sides to `path` (.npz); return how many."""
    # Any: np.savez's stubs read the names as its own keyword arguments.
    arrays: dict[str, Any] = {}
    total = 0
    for name, (tables, owner) in SIDES.items():
        ids, users, models, hashes, matrix = [], [], [], [], []
        every = vec.all_ids(tables)
        for start in range(0, len(every), CHUNK):
            chunk = every[start : start + CHUNK]
            user_of = dict(owner.objects.filter(pk__in=chunk).values_list("pk", "user_id"))
            labels, vectors = vec.indexed(chunk, tables), vec.vectors(chunk, tables)
            for i in chunk:
                if i in user_of and i in vectors:
                    ids.append(i)
                    users.append(user_of[i])
                    models.append(labels[i][0])
                    hashes.append(labels[i][1])
                    matrix.append(vectors[i])
            if progress:
                progress(len(chunk))
        arrays |= {
            f"{name}_ids": np.asarray(ids, dtype=np.int64),
            f"{name}_users": np.asarray(users, dtype=np.int64),
            f"{name}_models": np.asarray(models, dtype=str),
            f"{name}_hashes": np.asarray(hashes, dtype=str),
            f"{name}_matrix": np.stack(matrix).astype(np.float32) if matrix else np.zeros((0, 0), np.float32),
        }
        total += len(ids)
    np.savez(path, **arrays)
    return total


def load(path: Path) -> int:
    """Write the vectors of an export into this process's database; return how many."""
    data = np.load(path, allow_pickle=False)
    total = 0
    for name, (tables, _owner) in SIDES.items():
        ids, users = data[f"{name}_ids"], data[f"{name}_users"]
        models, hashes, matrix = data[f"{name}_models"], data[f"{name}_hashes"], data[f"{name}_matrix"]
        for start in range(0, len(ids), CHUNK):
            stop = start + CHUNK
            rows = zip(
                ids[start:stop].tolist(),
                users[start:stop].tolist(),
                models[start:stop].tolist(),
                hashes[start:stop].tolist(),
                (vec.to_blob(v) for v in matrix[start:stop]),
                strict=True,
            )
            with transaction.atomic():
                total += vec.upsert(list(rows), tables)
    return total
