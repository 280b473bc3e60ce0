"""Small builders for the profiles tests: facts through the real write path."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from facts import services
from facts.models import Fact, MemoryUser, Turn, TurnState
from facts.signals import turn_processed


def user_of(tenant_fixture, user_id: str = "u1") -> MemoryUser:
    return services.memory_user_get_or_create(tenant=tenant_fixture.tenant, user_id=user_id)


def age(fact: Fact, days: float) -> Fact:
    """Pretend the fact was last mentioned `days` ago (staleness is about mentions)."""
    when = timezone.now() - timedelta(days=days)
    Fact.objects.filter(pk=fact.pk).update(last_mentioned_at=when, created_at=when, valid_from=when)
    fact.refresh_from_db()
    return fact


def finished_turn(user: MemoryUser, n: int, *, state=TurnState.DONE, took_ms: float = 800.0, ago_s: float = 60) -> Turn:
    finished = timezone.now() - timedelta(seconds=ago_s)
    return Turn.objects.create(
        tenant_id=user.tenant_id,
        user=user,
        session_id="s1",
        turn_id=f"t{n}",
        user_input=f"turn {n}",
        state=state,
        created_at=finished - timedelta(milliseconds=took_ms),
        started_at=finished - timedelta(milliseconds=took_ms * 0.6),
        finished_at=finished if state in (TurnState.DONE, TurnState.SKIPPED) else None,
        queue_wait_ms=took_ms * 0.4,
        processing_ms=took_ms * 0.6,
        llm_ms=took_ms * 0.5,
    )


def processed_turn(user: MemoryUser, n: int, state=TurnState.DONE) -> Turn:
    """What extraction does when a turn is finished: a real Turn row, then the signal."""
    turn = finished_turn(user, n, state=state)
    turn_processed.send(sender=Fact, tenant_id=user.tenant_id, user_id=user.pk, turn_id=turn.pk, state=state)
    return turn
