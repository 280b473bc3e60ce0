"""The two ranked lists recall fuses.

The lexical side ranks facts by BM25 over the user's words, the vector side by
cosine distance to the query's vector. Each is read from the live index, or,
for point-in-time recall, from a snapshot of the facts valid then
(recall.as_of.Snapshot), which applies the same rules (recall.rules).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from django.conf import settings

from recall import fts, slots, vec
from recall.rules import relative_floor, similarity_floor
from recall.tables import FACTS, Tables

if TYPE_CHECKING:
    from recall.as_of import Snapshot


def lexical_live(
    user_id: int, terms: list[str], limit: int, tables: Tables = FACTS
) -> tuple[list[tuple[int, float]], list[str]]:
    """BM25 hits from the live index, and the universal terms left out of the query (one
    statement on PostgreSQL: the engine's search_leaving_universal)."""
    if not terms:
        return [], []
    hits, dropped = fts.search_leaving_universal(
        user_id,
        terms,
        limit,
        settings.MEMORY_RECALL_UNIVERSAL_MIN_FACTS,
        settings.MEMORY_RECALL_UNIVERSAL_SHARE,
        tables,
    )
    return relative_floor(hits), dropped


class _Side:
    """One side's reading: top() fills `known`, rank() answers from it.

    Scores are lower-is-better on both sides (FTS5's negative bm25(), cosine distance).
    """

    def __init__(self) -> None:
        self.known: dict[int, float] = {}  # every score read, beyond the list's own depth

    def _keep(self, hits: list[tuple[int, float]], limit: int) -> list[tuple[int, float]]:
        self.known = dict(hits)
        return hits[:limit]

    def rank(self, fact_ids: list[int]) -> list[tuple[int, float]]:
        """These facts' scores, best first. A fact the side never read (matching no query word,
        with no vector yet, or beyond the scanned depth) is left out: its RRF share would be
        next to nothing."""
        scores = {fid: self.known[fid] for fid in dict.fromkeys(fact_ids) if fid in self.known}
        return sorted(scores.items(), key=lambda pair: (pair[1], pair[0]))


class LexicalSide(_Side):
    """BM25 over the user's live index, or over a point-in-time snapshot."""

    def __init__(self, user_id: int, terms: list[str], snapshot: Snapshot | None, tables: Tables = FACTS) -> None:
        super().__init__()
        self.user_id, self.terms, self.snapshot, self.tables = user_id, terms, snapshot, tables
        self.dropped: list[str] = []  # universal terms left out (live index only)

    def top(self, limit: int, scan: int) -> list[tuple[int, float]]:
        """The best `limit` hits; the scores of the best `scan` are kept for rank()."""
        if self.snapshot is not None:
            hits = self.snapshot.bm25(self.terms, max(limit, scan))
        else:
            hits, self.dropped = lexical_live(self.user_id, self.terms, max(limit, scan), self.tables)
        return self._keep(hits, limit)


class VectorSide(_Side):
    """Cosine distances to the query over the user's stored vectors, or a snapshot's."""

    def __init__(
        self,
        user_id: int,
        query_vector: np.ndarray,
        snapshot: Snapshot | None,
        tables: Tables = FACTS,
        live: slots.State | None = None,
    ) -> None:
        """`live` is the switch state the query was embedded under (recall/slots.py): the
        slot and model read here are that state's, so a switch between the query's embedding
        and this read cannot pair one model's query with another's vectors."""
        super().__init__()
        live = live or slots.state()
        self.user_id, self.query_vector, self.snapshot = user_id, query_vector, snapshot
        self.tables = live.live_tables(tables)
        self.model = live.live_model
        if snapshot is not None:
            snapshot.vectors()  # a retired fact is embedded now: an embedder failure surfaces here

    def top(self, limit: int, scan: int) -> list[tuple[int, float]]:
        """The nearest `limit` facts; the distances of the nearest `scan` are kept for rank()."""
        if self.snapshot is not None:
            hits = self.snapshot.nearest(self.query_vector, max(limit, scan))
        else:
            hits = vec.search(self.user_id, self.query_vector, max(limit, scan), self.model, self.tables)
        return self._keep(similarity_floor(hits), limit)
