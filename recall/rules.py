"""The ranking rules both readings of the index apply: the live index (recall.sides, and the
SQLite engine's lexical search) and a point-in-time snapshot (recall.as_of).

They read only the settings, so every reader can stand on them: before, as_of and sides
imported each other for these three functions.
"""

from __future__ import annotations

from django.conf import settings


def universal_terms(
    terms: list[str], freqs: dict[str, int], total: int, min_facts: int | None = None, share: float | None = None
) -> set[str]:
    """Terms in so large a share of the user's facts that they rank nothing (names, "user").

    `terms` are the query terms present in at least one fact, `freqs` how many of
    the user's `total` facts hold each. `min_facts` and `share` default to the settings
    (MEMORY_RECALL_UNIVERSAL_MIN_FACTS, MEMORY_RECALL_UNIVERSAL_SHARE).
    """
    min_facts = settings.MEMORY_RECALL_UNIVERSAL_MIN_FACTS if min_facts is None else min_facts
    share = settings.MEMORY_RECALL_UNIVERSAL_SHARE if share is None else share
    if total < min_facts:
        return set()
    limit = share * total
    universal = {t for t in terms if freqs.get(t, 0) > limit}
    # Keep the query answerable when every term is common.
    return universal if len(universal) < len(terms) else set()


def relative_floor(hits: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """Drop BM25 hits far below the best one: with OR-ed terms the tail matches one weak word."""
    share = settings.MEMORY_RECALL_LEXICAL_FLOOR
    if share <= 0 or not hits:
        return hits
    best = -hits[0][1]
    return [(fid, score) for fid, score in hits if -score >= share * best]


def similarity_floor(pairs: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """Drop vector hits less similar to the query than MEMORY_RECALL_MIN_SIMILARITY."""
    floor = settings.MEMORY_RECALL_MIN_SIMILARITY
    return [(fid, dist) for fid, dist in pairs if 1.0 - dist >= floor]
