"""Fusion of ranked lists, category weights, supplements and budget packing (pure functions)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

from recall.hits import Hit

T = TypeVar("T")

RRF_K = 60

CATEGORY_WEIGHTS = {
    "identity": 1.3,
    "hard_preference": 1.2,
    "soft_preference": 1.2,
    "environment": 1.1,
}


@dataclass
class Candidate:
    fact_id: int
    score: float = 0.0
    signals: dict[str, Any] = field(default_factory=dict)


def rrf(
    lists: Sequence[tuple[str, float, Sequence[int]]],
    k: int = RRF_K,
    damping: dict[str, dict[int, float]] | None = None,
) -> dict[int, Candidate]:
    """Weighted Reciprocal Rank Fusion: score = sum over lists of weight / (k + rank).

    With `damping`, each contribution is also multiplied by the hit's score
    relative to the best of its list, so a weak tail counts for less.
    """
    fused: dict[int, Candidate] = {}
    for name, weight, ids in lists:
        add_list(fused, name, weight, ids, k, (damping or {}).get(name))
    return fused


def relative_scores(scores: Sequence[float], ids: Sequence[int]) -> dict[int, float]:
    """Each score as a share of the best (higher-is-better scores), floored at 0."""
    if not scores:
        return {}
    best = max(scores)
    if best <= 0:
        return {fid: 1.0 for fid in ids}
    return {fid: max(0.0, s) / best for fid, s in zip(ids, scores, strict=True)}


def linear(
    lexical: Sequence[tuple[int, float]],
    vector: Sequence[tuple[int, float]],
    recency: dict[int, float],
    weights: tuple[float, float, float] = (0.45, 0.45, 0.10),
) -> dict[int, Candidate]:
    """Linear blend of min-max normalised BM25, cosine similarity and recency (0..1 each)."""
    fused: dict[int, Candidate] = {}

    def _norm(pairs: Sequence[tuple[int, float]], higher_is_better: bool) -> dict[int, float]:
        if not pairs:
            return {}
        values = [v if higher_is_better else -v for _, v in pairs]
        lo, hi = min(values), max(values)
        span = (hi - lo) or 1.0
        return {fid: ((v if higher_is_better else -v) - lo) / span for fid, v in pairs}

    lex = _norm(lexical, higher_is_better=False)  # bm25() is lower-is-better
    sim = {fid: 1.0 - dist for fid, dist in vector}
    for rank, (fid, _) in enumerate(lexical, start=1):
        fused.setdefault(fid, Candidate(fid)).signals["lexical_rank"] = rank
    for rank, (fid, _) in enumerate(vector, start=1):
        fused.setdefault(fid, Candidate(fid)).signals["vector_rank"] = rank
    for fid, cand in fused.items():
        cand.score = (
            weights[0] * lex.get(fid, 0.0)
            + weights[1] * max(0.0, sim.get(fid, 0.0))
            + weights[2] * recency.get(fid, 0.0)
        )
    return fused


def recency_weight(age_seconds: float, half_life_days: float) -> float:
    """Exponential decay: 1.0 now, 0.5 after one half-life."""
    if half_life_days <= 0:
        return 0.0
    return math.pow(0.5, max(0.0, age_seconds) / (half_life_days * 86_400))


# Hits said within one day of each other are about as new: a user's first facts, extracted
# seconds apart, are not put in the order of those seconds.
NEWER_MIN_SPAN = timedelta(days=1)


def prefer_newer(hits: Sequence[Hit], moments: Sequence[datetime], weight: float) -> None:
    """Raise each hit's score by up to `weight` (a share of its own score), in proportion to
    where its moment lies between the oldest hit's (no raise) and the newest's (the full
    `weight`; measured over a day at least). Among hits that answer about equally well the newer
    statement goes first; a clearly better answer keeps its place (docs/recall.md, "Newer first")."""
    if weight <= 0 or not moments:
        return
    oldest = min(moments)
    span = max(max(moments) - oldest, NEWER_MIN_SPAN).total_seconds()
    for hit, moment in zip(hits, moments, strict=True):
        boost = weight * (moment - oldest).total_seconds() / span
        hit.signals["recency_boost"] = round(boost, 4)
        hit.score *= 1.0 + boost


# Only the first five move, and only among themselves: a list of five or more holds the same
# hits with the rule as without it.
LEADERS_AT_MOST = 5


def newest_leaders_first(ranked: list[Hit], moments: Sequence[datetime], ratio: float) -> list[Hit]:
    """The leaders, the hits from the top that score at least the best's share 1/`ratio` (at
    most LEADERS_AT_MOST), ordered by the day they were said (`moments`, of the first hits at
    least), newest first, and by score within a day; the rest keep their order. When a value
    changed, the statements of it answer the question about equally well and the latest is what
    holds now (docs/recall.md, "Newest leader first")."""
    if ratio <= 1 or not ranked:
        return ranked
    floor = ranked[0].score / ratio
    count = 0
    while count < min(LEADERS_AT_MOST, len(ranked)) and ranked[count].score >= floor:
        count += 1
    # A stable sort: hits said on one day keep their score order.
    leaders = [ranked[i] for i in sorted(range(count), key=lambda i: moments[i].date(), reverse=True)]
    for hit in leaders:
        hit.signals["leader"] = True
    return leaders + ranked[count:]


def apply_category_weights(cands: dict[int, Candidate], categories: dict[int, str]) -> None:
    for fid, cand in cands.items():
        weight = CATEGORY_WEIGHTS.get(categories.get(fid, ""), 1.0)
        cand.signals["fused"] = round(cand.score, 6)
        cand.signals["category_weight"] = weight
        cand.score *= weight


def supplement_scores(floor: float | None, count: int) -> list[float]:
    """Scores for back-fill items: strictly below the lowest direct hit, decreasing."""
    top = (floor if floor and floor > 0 else 1e-3) * 0.5
    return [top / (1 + i) for i in range(count)]


def pack(items: list[T], k: int, budget_chars: int | None, length: Callable[[T], int]) -> list[T]:
    """Greedy packing in rank order: take what fits under the budget, at most k."""
    if budget_chars is None:
        return items[:k]
    packed, used = [], 0
    for item in items:
        size = length(item)
        if used + size <= budget_chars:
            packed.append(item)
            used += size
            if len(packed) >= k:
                break
    return packed


def add_list(
    cands: dict[int, Candidate],
    name: str,
    weight: float,
    ids: Sequence[int],
    k: int = RRF_K,
    factors: dict[int, float] | None = None,
) -> None:
    """One ranked list into an RRF result (a fact only this list found joins the candidates);
    `factors` scales each fact's contribution (score damping)."""
    for rank, fact_id in enumerate(ids, start=1):
        cand = cands.setdefault(fact_id, Candidate(fact_id))
        cand.score += weight * (factors or {}).get(fact_id, 1.0) / (k + rank)
        cand.signals[f"{name}_rank"] = rank
