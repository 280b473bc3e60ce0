"""Reads the mem0 routes need beyond facts.selectors, scoped to one tenant or user."""

from __future__ import annotations

from core.errors import NotFound
from facts.models import Fact, MemoryUser, Tenant, Turn
from facts.selectors import FACT_RELATED


def memory_user_or_none(*, tenant: Tenant, user_id: str) -> MemoryUser | None:
    return MemoryUser.objects.filter(tenant=tenant, external_id=user_id).first()


def memory_count(*, user: MemoryUser, include_retired: bool) -> int:
    facts = Fact.objects.filter(user=user)
    return facts.count() if include_retired else facts.live().count()


def turn_by_event(*, tenant: Tenant, event_id: str) -> Turn:
    """The turn an add answered with `event_id` (its turn id), within the tenant."""
    turn = Turn.objects.filter(tenant=tenant, turn_id=event_id).select_related("user").first()
    if turn is None:
        raise NotFound("Event not found.")
    return turn


def facts_of_turn(turn: Turn) -> list[Fact]:
    return list(Fact.objects.filter(source_turn=turn).select_related(*FACT_RELATED).order_by("pk"))
