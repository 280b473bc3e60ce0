"""Recall's graph back-fill: the facts one hop away from a query through the entities they are
tagged with (docs/design.md §5): recall.services takes them, after the direct hits and
before the most recent facts, when the direct hits do not fill k.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, QuerySet

from facts.models import Fact, FactEntity, MemoryUser
from recall.query import stem, words


def neighbours(
    user: MemoryUser, terms: list[str], seeds: list[int], exclude: set[int], base: QuerySet[Fact]
) -> list[tuple[int, str]]:
    """Facts one hop away: tagged with an entity named in the query or tagged on a top hit."""
    seeded = FactEntity.objects.filter(fact_id__in=seeds)
    if terms:
        # One statement for both: the user's entities, each marked when a top hit is tagged with it
        # (a round trip each on PostgreSQL; docs/measurements.md §13).
        query_stems = {stem(t) for t in terms}
        named = user.entities.annotate(seeded=Exists(seeded.filter(entity_id=OuterRef("pk"))))
        entity_ids = {
            eid
            for eid, name, on_seed in named.values_list("id", "name", "seeded")
            if on_seed or {stem(w) for w in words(name)} & query_stems
        }
    else:
        entity_ids = set(seeded.values_list("entity_id", flat=True))
    if not entity_ids:
        return []
    rows = (
        # The user named on both joined tables: PostgreSQL then opens only their partitions,
        # so a compaction holding another user's slice does not hold this up (issue 33).
        FactEntity.objects.filter(entity_id__in=entity_ids, fact__in=base, fact__user=user, entity__user=user)
        .exclude(fact_id__in=exclude)
        .select_related("entity")
        .order_by("-fact__last_mentioned_at")
    )
    found: dict[int, str] = {}
    for row in rows[:200]:
        found.setdefault(row.fact_id, row.entity.name)
    return list(found.items())
