"""Entity name normalisation and tagging (SPEC 2)."""

from __future__ import annotations

import re

from facts.models import Entity, Fact, FactEntity

MAX_TAGS = 4
_SPACE = re.compile(r"\s+")
_EDGE_PUNCT = re.compile(r"^[^\w]+|[^\w+#]+$")


def normalise_entity(name: str) -> str:
    """Lower case, single spaces, edge punctuation off, a simple plural made singular."""
    name = _EDGE_PUNCT.sub("", _SPACE.sub(" ", (name or "").strip().lower()))
    words = name.split(" ")
    last = words[-1] if words else ""
    if len(last) > 3 and not last.endswith(("ss", "us", "is", "ous")):
        if last.endswith("ies") and len(last) > 4:
            last = last[:-3] + "y"
        elif last.endswith("s"):
            last = last[:-1]
        words[-1] = last
    return " ".join(words)[:100]


def resolve_entity(*, user, name: str) -> Entity | None:
    """Find the user's entity by normalised name or alias, creating it if new."""
    norm = normalise_entity(name)
    if not norm:
        return None
    entity = Entity.objects.filter(user=user, name=norm).first()
    if entity:
        return entity
    for candidate in Entity.objects.filter(user=user).exclude(aliases=[]):
        if norm in candidate.aliases:
            return candidate
    return Entity.objects.create(tenant_id=user.tenant_id, user=user, name=norm, display_name=name.strip()[:100])


def tag_fact(fact: Fact, names: list[str] | None) -> list[Entity]:
    entities: list[Entity] = []
    for name in (names or [])[:MAX_TAGS]:
        entity = resolve_entity(user=fact.user, name=name)
        if entity and entity not in entities:
            entities.append(entity)
            FactEntity.objects.get_or_create(fact=fact, entity=entity)
    return entities
