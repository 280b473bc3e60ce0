"""Signal receivers connecting the write path (facts.signals) to the recall index."""

from __future__ import annotations

from django.dispatch import receiver

from facts.signals import episodes_changed, facts_changed, turn_processed, user_erasing
from recall import episode_index, index


@receiver(facts_changed, dispatch_uid="recall.index_changed_facts")
def index_changed_facts(sender, tenant_id=None, user_id=None, fact_ids=None, **kwargs) -> None:
    # Sent after commit; the task reloads the rows, so it sees the committed state.
    if fact_ids:
        from recall.tasks import sync_facts

        sync_facts.apply_async(args=[[int(i) for i in fact_ids]])


@receiver(user_erasing, dispatch_uid="recall.erase_user_index")
def erase_user_index(sender, user=None, count_only: bool = False, **kwargs) -> dict:
    if count_only:
        return {**index.count_user(user.pk), **episode_index.count_user(user.pk)}
    # Inside the erase transaction: with FTS5 secure-delete and PRAGMA
    # secure_delete the user's tokens and vectors are overwritten, not just unlinked.
    return {**index.erase_user(user.pk), **episode_index.erase_user(user.pk)}


@receiver(turn_processed, dispatch_uid="recall.index_episode")
def index_episode(sender, turn_id=None, state=None, **kwargs) -> None:
    # A turn processed `done` becomes an episode; a skipped one never does.
    if turn_id and state == "done":
        from recall.tasks import sync_episodes

        sync_episodes.apply_async(args=[[int(turn_id)]])


@receiver(episodes_changed, dispatch_uid="recall.sync_changed_episodes")
def sync_changed_episodes(sender, turn_ids=None, **kwargs) -> None:
    if turn_ids:
        from recall.tasks import sync_episodes

        sync_episodes.apply_async(args=[[int(i) for i in turn_ids]])
