"""Entity name normalisation, resolution and tagging (docs/design.md §2).

An entity's `name` is its readable normalised form (lower case, single spaces,
no edge punctuation). Resolution also matches a simple singular form and the
entity's aliases, so "Pods", "pod" and "pods" are one entity; the singular form
is only ever a matching key, never shown, because English plurals are too
irregular to rewrite names safely ("Kubernetes" is not a plural).
"""

from __future__ import annotations

import re

from django.db.models import Exists, OuterRef, Q

from core.db.rows import delete_unreferenced
from facts.models import Edge, Entity, Fact, FactEntity, MemoryUser

MAX_TAGS = 4
_SPACE = re.compile(r"\s+")
_EDGE_PUNCT = re.compile(r"^[^\w]+|[^\w+#]+$")


def normalise_entity(name: str) -> str:
    """Lower case, single spaces, edge punctuation off (keeps C++ and C#)."""
    return _EDGE_PUNCT.sub("", _SPACE.sub(" ", (name or "").strip().lower()))[:100]


def match_key(name: str) -> str:
    """A normalised name with a simple plural on its last word made singular."""
    words = normalise_entity(name).split(" ")
    last = words[-1]
    if len(last) > 3 and not last.endswith(("ss", "us", "is")):
        if last.endswith("ies") and len(last) > 4:
            last = last[:-3] + "y"
        elif last.endswith("s"):
            last = last[:-1]
    return " ".join([*words[:-1], last])


def resolve_entity(*, user: MemoryUser, name: str) -> Entity | None:
    """Find the user's entity by name, singular form or alias; create it if new."""
    norm = normalise_entity(name)
    if not norm:
        return None
    entity = Entity.objects.filter(user=user, name=norm).first()
    if entity:
        return entity
    key = match_key(norm)
    for candidate in Entity.objects.filter(user=user).only("id", "name", "aliases"):
        if match_key(candidate.name) == key or norm in candidate.aliases:
            return candidate
    return Entity.objects.create(tenant_id=user.tenant_id, user=user, name=norm, display_name=name.strip()[:100])


def tag_fact(fact: Fact, names: list[str] | None) -> list[Entity]:
    """Tag a fact just inserted (every caller's): it has no tags yet, so each is inserted without
    looking for it first (a get_or_create cost a read and a savepoint per tag)."""
    entities: list[Entity] = []
    for name in (names or [])[:MAX_TAGS]:
        entity = resolve_entity(user=fact.user, name=name)
        if entity and entity not in entities:
            entities.append(entity)
    FactEntity.objects.bulk_create([FactEntity(fact=fact, entity=entity) for entity in entities])
    return entities


def tag_names(fact: Fact) -> list[str]:
    """The display names of the fact's entities, in the order they were tagged; read naming its
    person (loaded one by one, each entity was read by id alone, on every partition)."""
    tags = FactEntity.objects.filter(fact=fact, entity__user_id=fact.user_id).order_by("pk")
    return list(tags.values_list("entity__display_name", flat=True))


def drop_unreferenced(*, user: MemoryUser, entity_ids: set[int]) -> int:
    """Delete those of these entities of `user` that no fact tag and no edge refers to any more
    (a forget took the last one): an entity's name is the forgotten fact's words too."""
    if not entity_ids:
        return 0
    # Every statement names the person: on PostgreSQL entities and edges are partitioned by it.
    edges = Edge.objects.filter(user=user)
    orphans = Entity.objects.filter(user=user, pk__in=entity_ids).exclude(
        Exists(FactEntity.objects.filter(entity=OuterRef("pk")))
        | Exists(edges.filter(Q(src=OuterRef("pk")) | Q(dst=OuterRef("pk"))))
    )
    # Nothing refers to an orphan (that is what makes it one, and the caller holds the person's
    # lock, so no writer tags it meanwhile): one DELETE with this filter, not Django's collector
    # looking for tags and edges by id in every partition.
    return delete_unreferenced(orphans)
