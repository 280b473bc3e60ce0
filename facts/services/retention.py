"""Episode retention: turns older than MEMORY_EPISODE_RETENTION_DAYS go, with their episodes
(docs/design.md §10). Facts they produced stay (their source turn link becomes empty) and are
re-indexed without the exchange that turn contributed. Each run leaves a RetentionRun row with
counts only."""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from facts.models import Fact, RetentionRun, Turn, TurnState
from facts.services.changes import withdraw_episodes
from facts.signals import facts_changed, index_dirty

# Turns still waiting for extraction are left for it, whatever their age.
_FINISHED = (TurnState.DONE, TurnState.SKIPPED, TurnState.FAILED)


def episodes_expire(*, days: int | None = None, now: datetime | None = None) -> RetentionRun | None:
    """Delete the finished turns that occurred more than `days` ago; None when retention is off."""
    days = settings.MEMORY_EPISODE_RETENTION_DAYS if days is None else days
    if days is None:
        return None
    cutoff = (now or timezone.now()) - timedelta(days=int(days))
    with transaction.atomic():
        old = Turn.objects.filter(occurred_at__lt=cutoff, state__in=_FINISHED)
        rows = list(old.values_list("pk", "user_id", "tenant_id"))
        episodes = Turn.objects.episodes().filter(pk__in=[pk for pk, _, _ in rows]).count()
        facts = list(Fact.objects.filter(source_turn_id__in=[pk for pk, _, _ in rows]).values_list("pk", "user_id"))
        Turn.objects.filter(pk__in=[pk for pk, _, _ in rows]).delete()
        run = RetentionRun.objects.create(
            retention_days=int(days), cutoff=cutoff, turns=len(rows), episodes=episodes, facts_reindexed=len(facts)
        )
        _announce(rows, facts)
    return run


def _announce(rows: list[tuple[int, int, UUID]], facts: list[tuple[int, int]]) -> None:
    """In the transaction: the episode index drops the turns and the fact index marks their
    facts, which lose the turns' exchange; after commit, facts_changed."""
    by_user: dict[int, list[int]] = {}
    for pk, user_id, _ in rows:
        by_user.setdefault(user_id, []).append(pk)
    for user_id, turn_ids in by_user.items():
        withdraw_episodes(user_id, turn_ids)
    fact_ids: dict[int, list[int]] = {}
    for pk, user_id in facts:
        fact_ids.setdefault(user_id, []).append(pk)
    tenants = {user_id: tenant_id for _, user_id, tenant_id in rows}
    for user_id, ids in fact_ids.items():
        index_dirty.send(sender=Fact, user_id=user_id, fact_ids=ids, turn_ids=[])

    def send() -> None:
        for user_id, ids in fact_ids.items():
            facts_changed.send_robust(sender=Fact, tenant_id=tenants.get(user_id), user_id=user_id, fact_ids=ids)

    transaction.on_commit(send)
