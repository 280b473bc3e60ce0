"""The two bulk forgets mem0's API has and ours names differently; both go through facts.services."""

from __future__ import annotations

from facts import services
from facts.models import Fact, MemoryUser


def memories_forget_all(*, user: MemoryUser, actor: services.Actor) -> int:
    """Forget every fact of the user, live or retired (mem0's delete_all); the user and its turns stay."""
    facts = list(Fact.objects.filter(user=user).order_by("pk"))
    return services.facts_forget(facts=facts, actor=actor, reason="forgotten with all the user's memories")


def memory_forget_chain(*, fact: Fact, actor: services.Actor) -> int:
    """Forget a fact and every version it superseded or that superseded it (mem0's delete_linked)."""
    chain = list(Fact.objects.filter(user_id=fact.user_id, chain_id=fact.chain_id).order_by("pk"))
    return services.facts_forget(facts=chain, actor=actor, reason="forgotten with its versions")
