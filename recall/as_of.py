"""Point-in-time recall (`as_of`): the facts valid at a past time, ranked in memory.

The live index holds live facts only, so a snapshot builds the same documents
the index would (recall.index.documents) for the facts valid then and ranks
them itself: BM25 with FTS5's parameters and column weights, and cosine
distance over stored vectors (a retired fact, no longer indexed, is embedded
at query time). The rules the live path applies (universal terms, the relative
floor) come from recall.rules, so both paths rank by the same rules.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np
from django.db.models import QuerySet

from facts.models import Fact
from recall import fts, vec
from recall.embeddings import get_embedder
from recall.index import Document, documents
from recall.query import stem, words
from recall.rules import relative_floor, universal_terms

# FTS5's bm25() constants.
BM25_K1 = 1.2
BM25_B = 0.75

Words = dict[int, tuple[list[str], list[str]]]  # fact id -> (body words, context words)


def _term_counts(docs: Words) -> dict[int, tuple[dict[str, float], float]]:
    """fact id -> (weighted count of each stem, weighted document length); context words
    count fts.CONTEXT_WEIGHT each, as the bm25() column weights make them."""
    counted: dict[int, tuple[dict[str, float], float]] = {}
    for fid, (body, context) in docs.items():
        counts: defaultdict[str, float] = defaultdict(float)
        for w in body:
            counts[stem(w)] += 1.0
        for w in context:
            counts[stem(w)] += fts.CONTEXT_WEIGHT
        counted[fid] = (counts, len(body) + fts.CONTEXT_WEIGHT * len(context))
    return counted


def bm25(docs: Words, terms: list[str], limit: int) -> list[tuple[int, float]]:
    """BM25 over in-memory documents: [(fact id, -score)], lower is better like FTS5's bm25()."""
    if not docs or not terms:
        return []
    stems = list(dict.fromkeys(stem(t) for t in terms))
    counted = _term_counts(docs)
    n = len(docs)
    avg = sum(length for _, length in counted.values()) / n or 1.0
    df = {s: sum(1 for counts, _ in counted.values() if counts.get(s)) for s in stems}
    dropped = universal_terms([s for s in stems if df[s]], df, n)
    stems = [s for s in stems if s not in dropped]
    scored = []
    for fid, (counts, length) in counted.items():
        score = 0.0
        for s in stems:
            tf = counts.get(s, 0)
            if tf:
                idf = math.log(1 + (n - df[s] + 0.5) / (df[s] + 0.5))
                norm = BM25_K1 * (1 - BM25_B + BM25_B * length / avg)
                score += idf * tf * (BM25_K1 + 1) / (tf + norm)
        if score > 0:
            scored.append((fid, -score))
    scored.sort(key=lambda pair: pair[1])
    return relative_floor(scored[:limit])


def cosine_nearest(query_vector: np.ndarray, vectors: dict[int, np.ndarray], limit: int) -> list[tuple[int, float]]:
    """[(fact id, cosine distance)], nearest first (vectors are unit length)."""
    ranked = sorted(((fid, 1.0 - float(query_vector @ v)) for fid, v in vectors.items()), key=lambda p: p[1])
    return ranked[:limit]


def vectors_as_of(facts: list[Fact], docs: dict[int, Document]) -> dict[int, np.ndarray]:
    """Stored vectors where the fact is still indexed; retired facts are embedded now."""
    users = {f.user_id for f in facts}
    stored = vec.vectors([f.pk for f in facts], user_id=users.pop() if len(users) == 1 else None)
    missing = [f for f in facts if f.pk not in stored]
    if missing:
        matrix = get_embedder().embed([docs[f.pk].embed_text for f in missing])
        stored.update({f.pk: row for f, row in zip(missing, matrix, strict=True)})
    return stored


@dataclass
class Snapshot:
    """The facts valid at a time, as the index would hold them."""

    facts: list[Fact]
    documents: dict[int, Document]
    words: Words
    _vectors: dict[int, np.ndarray] | None = field(default=None, repr=False)

    @classmethod
    def of(cls, base: QuerySet[Fact]) -> Snapshot:
        """From a queryset of the facts valid at the time."""
        facts = list(base.prefetch_related("entity_tags__entity"))
        indexed = documents(facts)
        return cls(facts, indexed, {fid: (words(d.body), words(d.context)) for fid, d in indexed.items()})

    def bm25(self, terms: list[str], limit: int) -> list[tuple[int, float]]:
        return bm25(self.words, terms, limit)

    def vectors(self) -> dict[int, np.ndarray]:
        """Every fact's vector, read (or embedded) once."""
        if self._vectors is None:
            self._vectors = vectors_as_of(self.facts, self.documents)
        return self._vectors

    def nearest(self, query_vector: np.ndarray, limit: int) -> list[tuple[int, float]]:
        return cosine_nearest(query_vector, self.vectors(), limit)
