"""The two bulk forgets mem0's API has and ours names differently; each fact goes through facts.services."""

from __future__ import annotations

from django.db import transaction

from facts import services
from facts.models import Fact, MemoryUser


def _forget_each(facts: list[Fact], actor: services.Actor) -> int:
    for fact in facts:
        # Reload: forgetting an earlier one may have nulled this one's links (replaces, superseded_by).
        fact.refresh_from_db()
        services.fact_forget(fact=fact, actor=actor)
    return len(facts)


@transaction.atomic
def memories_forget_all(*, user: MemoryUser, actor: services.Actor) -> int:
    """Forget every fact of the user, live or retired (mem0's delete_all); the user and its turns stay."""
    return _forget_each(list(Fact.objects.filter(user=user).order_by("pk")), actor)


@transaction.atomic
def memory_forget_chain(*, fact: Fact, actor: services.Actor) -> int:
    """Forget a fact and every version it superseded or that superseded it (mem0's delete_linked)."""
    chain = list(Fact.objects.filter(user_id=fact.user_id, chain_id=fact.chain_id).order_by("pk"))
    return _forget_each(chain, actor)
