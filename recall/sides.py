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
from recall.embeddings import embed_query, embedder_for
from recall.rules import relative_floor, similarity_floor
from recall.tables import FACTS, Tables

if TYPE_CHECKING:
    from facts.models import MemoryUser
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


# The embedder switch's state as this process last read it (recall/slots.py), with the model the
# settings named then (what a store without a switch row serves). A live vector read carries the
# check that the switch still says it (recall/engines/portable.py SWITCH_UNCHANGED), so a recall
# reads the switch's row only when the check fails or nothing was found: one statement fewer per
# recall, and never a query of one model paired with another's vectors.
_switch_seen: tuple[str, slots.State] | None = None


def switch_seen() -> slots.State:
    """The switch state this process last read (read now the first time, or when the settings
    name another model than they did then)."""
    seen = _switch_seen
    if seen is not None and seen[0] == slots.configured_model():
        return seen[1]
    return switch_read()


def switch_read() -> slots.State:
    """The switch state read now, and remembered."""
    global _switch_seen
    state = slots.state()
    _switch_seen = (slots.configured_model(), state)
    return state


class VectorSide(_Side):
    """Cosine distances to the query over the user's stored vectors, or a snapshot's."""

    def __init__(
        self,
        user_id: int,
        query_vector: np.ndarray,
        snapshot: Snapshot | None,
        tables: Tables = FACTS,
        live: slots.State | None = None,
        checked: bool = False,
    ) -> None:
        """`live` is the switch state the query was embedded under (recall/slots.py): the
        slot and model read here are that state's, so a switch between the query's embedding
        and this read cannot pair one model's query with another's vectors. `checked`: `live`
        was remembered, not read now; the live read checks it in its own statement, and `stale`
        tells the caller to read the switch and search again (switch_read)."""
        super().__init__()
        live = live or slots.state()
        self.user_id, self.query_vector, self.snapshot = user_id, query_vector, snapshot
        self.tables = live.live_tables(tables)
        self.model = live.live_model
        self.live, self.checked, self.stale = live, checked and snapshot is None, False
        if snapshot is not None:
            snapshot.vectors()  # a retired fact is embedded now: an embedder failure surfaces here

    def top(self, limit: int, scan: int) -> list[tuple[int, float]]:
        """The nearest `limit` facts; the distances of the nearest `scan` are kept for rank()."""
        if self.snapshot is not None:
            hits = self.snapshot.nearest(self.query_vector, max(limit, scan))
        else:
            hits = vec.search(
                self.user_id, self.query_vector, max(limit, scan), self.model, self.tables, self._expect()
            )
            # Nothing found: no vectors, or the switch moved since `live` was read. Read it to tell.
            self.stale = self.checked and not hits and _moved(self.live, switch_read())
        return self._keep(similarity_floor(hits), limit)

    def _expect(self) -> tuple[str, str, bool] | None:
        if not self.checked:
            return None
        serves_without_row = (self.live.live_slot, self.live.live_model) == ("a", slots.configured_model())
        return self.live.live_slot, self.live.live_model, serves_without_row


def vector_side(
    user: MemoryUser, query: str, snapshot: Snapshot | None, tables: Tables = FACTS, live: slots.State | None = None
) -> VectorSide:
    """The vector side, its query embedded under one reading of the model and slot: `live`, else
    the one this process last read (checked in the live read's own statement), or, as of a past
    time, one read now under which the snapshot reads the live vectors too."""
    if snapshot is not None:
        with slots.pinned() as now:
            query_vector = embed_query(query, embedder_for(now.live_model), tenant_id=user.tenant_id)
            return VectorSide(user.pk, query_vector, snapshot, tables, now)
    checked = live is None
    live = live or switch_seen()
    query_vector = embed_query(query, embedder_for(live.live_model), tenant_id=user.tenant_id)
    return VectorSide(user.pk, query_vector, snapshot, tables, live, checked=checked)


def _moved(before: slots.State, now: slots.State) -> bool:
    """Whether what a vector read depends on (the live slot and model) changed."""
    return (before.live_slot, before.live_model) != (now.live_slot, now.live_model)
