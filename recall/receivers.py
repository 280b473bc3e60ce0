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
from recall import episode_index, index, indexer


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
    indexer.remove_facts(ids + siblings)


@receiver(episodes_withdrawn, dispatch_uid="recall.drop_withdrawn_episodes")
def drop_withdrawn_episodes(sender: object, turn_ids: Iterable[int] = (), **kwargs: Any) -> None:
    indexer.remove_episodes(list(turn_ids))


@receiver(user_erasing, dispatch_uid="recall.erase_user_index")
def erase_user_index(sender: object, user: MemoryUser, count_only: bool = False, **kwargs: Any) -> dict[str, int]:
    if count_only:
        return {**index.count_user(user.pk), **episode_index.count_user(user.pk)}
    # With FTS5 secure-delete and PRAGMA secure_delete the user's tokens and vectors are
    # overwritten, not just unlinked. The outbox rows go too (ids only, no text).
    indexer.erase_user(user.pk)
    return {**index.erase_user(user.pk), **episode_index.erase_user(user.pk)}
