"""Signal receivers connecting the write path (facts.signals) to the recall index.

Every receiver here runs inside the transaction of the change: the outbox row of a
changed fact or episode commits with it (recall/indexer.py), and the rows of forgotten
facts and withdrawn episodes are gone when it commits (docs/design.md §3, §8).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.dispatch import receiver

from facts.models import Fact, MemoryUser
from facts.signals import episodes_withdrawn, facts_forgetting, index_dirty, user_erasing
from recall import episode_index, fts, index, indexer, vec
from recall.models import PendingIndex
from recall.tables import EPISODES, FACTS


@receiver(index_dirty, dispatch_uid="recall.mark_for_index")
def mark_for_index(
    sender: object, user_id: int, fact_ids: Iterable[int] = (), turn_ids: Iterable[int] = (), **kwargs: Any
) -> None:
    indexer.mark(user_id=user_id, fact_ids=fact_ids, turn_ids=turn_ids)


@receiver(facts_forgetting, dispatch_uid="recall.drop_forgotten_facts")
def drop_forgotten_facts(sender: object, user: MemoryUser, fact_uuids: Iterable[str] = (), **kwargs: Any) -> None:
    """The forgotten facts' rows go now. So do the rows of the other facts stated in the
    same turns, which were indexed with the whole message (recall/index.py `stated_in`);
    the write path marks those again (facts/services/lifecycle.py), and after commit they
    are indexed with their own excerpt only."""
    forgotten = Fact.objects.filter(user=user, uuid__in=fact_uuids)
    turns = set(forgotten.exclude(source_turn=None).values_list("source_turn_id", flat=True))
    ids = list(forgotten.values_list("pk", flat=True))
    siblings = list(
        Fact.objects.filter(user=user, source_turn_id__in=turns).exclude(pk__in=ids).values_list("pk", flat=True)
    )
    _remove_rows(ids + siblings, PendingIndex.Kind.FACT, users=[user.pk])


@receiver(episodes_withdrawn, dispatch_uid="recall.drop_withdrawn_episodes")
def drop_withdrawn_episodes(
    sender: object, user_id: int | None = None, turn_ids: Iterable[int] = (), **kwargs: Any
) -> None:
    _remove_rows(list(turn_ids), PendingIndex.Kind.EPISODE, users=None if user_id is None else [user_id])


@receiver(user_erasing, dispatch_uid="recall.erase_user_index")
def erase_user_index(sender: object, user: MemoryUser, count_only: bool = False, **kwargs: Any) -> dict[str, int]:
    if count_only:
        return {**index.count_user(user.pk), **episode_index.count_user(user.pk)}
    # With FTS5 secure-delete and PRAGMA secure_delete the user's tokens and vectors are
    # overwritten, not just unlinked. The outbox rows go too (ids only, no text).
    PendingIndex.objects.filter(user_id=user.pk).delete()
    return {**index.erase_user(user.pk), **episode_index.erase_user(user.pk)}


def _remove_rows(ids: list[int], kind: str, users: list[int] | None) -> None:
    """The items' index rows and outbox rows, now, in the change's transaction. `users`: the
    items' people, when known (PostgreSQL then plans their partitions only)."""
    tables = FACTS if kind == PendingIndex.Kind.FACT else EPISODES
    fts.delete(ids, tables, users=users)
    vec.delete(ids, tables, users=users)
    PendingIndex.objects.filter(kind=kind, item_id__in=ids).delete()
