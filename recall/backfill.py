"""The back-fill of a recall (recall.services): graph neighbours, then the most recent facts, when the
direct hits do not fill k; scored strictly below the weakest direct hit."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol

from django.db.models import QuerySet

from facts.models import Fact, MemoryUser
from recall import fusion, graph
from recall.hits import FactHit


class Plan(Protocol):
    """What the back-fill reads of a recall's plan (recall.services._Plan)."""

    user: MemoryUser
    terms: list[str]
    k: int
    as_of: datetime | None
    base: QuerySet[Fact]


def _picks(plan: Plan, hits: list[FactHit]) -> tuple[list[tuple[int, dict[str, Any]]], dict[int, Fact]]:
    """(fact id, signals) of the back-fill, in order: graph neighbours first, then the most
    recent facts, until k is reached; and the recent facts, read whole (no second read for them)."""
    taken = {h.fact.pk for h in hits}
    picks: list[tuple[int, dict[str, Any]]] = []
    recent: dict[int, Fact] = {}
    if plan.terms or hits:
        seeds = [h.fact.pk for h in hits[:5]]
        for fid, entity in graph.neighbours(plan.user, plan.terms, seeds, taken, plan.base):
            if len(hits) + len(picks) >= plan.k:
                break
            picks.append((fid, {"supplement": "graph", "via_entity": entity}))
            taken.add(fid)
    need = plan.k - len(hits) - len(picks)
    if need > 0:
        order = "-valid_from" if plan.as_of is not None else "-last_mentioned_at"
        for fact in plan.base.exclude(pk__in=taken).order_by(order, "-pk")[:need]:
            fact.user = plan.user  # as recall.services._load_facts gives it
            recent[fact.pk] = fact
            picks.append((fact.pk, {"supplement": "recent"}))
    return picks, recent


def supplements(plan: Plan, hits: list[FactHit], load: Callable[[Any, list[int]], dict[int, Fact]]) -> list[FactHit]:
    """Back-fill only: considered when direct hits do not fill k, and scored strictly
    below the weakest direct hit."""
    if len(hits) >= plan.k:
        return []
    floor = min((h.score for h in hits), default=None)
    picks, facts = _picks(plan, hits)
    facts.update(load(plan, [fid for fid, _ in picks if fid not in facts]))
    scores = fusion.supplement_scores(floor, len(picks))
    return [
        FactHit(facts[fid], score, signals) for (fid, signals), score in zip(picks, scores, strict=True) if fid in facts
    ]
