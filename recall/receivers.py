"""Signal receivers connecting the write path (facts.signals) to the recall index."""

from __future__ import annotations

from django.conf import settings
from django.dispatch import receiver

from facts.signals import facts_changed, user_erasing
from recall import index


@receiver(facts_changed, dispatch_uid="recall.index_changed_facts")
def index_changed_facts(sender, tenant_id=None, user_id=None, fact_ids=None, **kwargs) -> None:
    # Sent after commit; the task reloads the rows, so it sees the committed state.
    if fact_ids:
        from recall.tasks import sync_facts

        sync_facts.apply_async(args=[[int(i) for i in fact_ids]], queue=settings.MEMORY_QUEUE_DB)


@receiver(user_erasing, dispatch_uid="recall.erase_user_index")
def erase_user_index(sender, user=None, count_only: bool = False, **kwargs) -> dict:
    if count_only:
        return index.count_user(user.pk)
    # Inside the erase transaction: with FTS5 secure-delete and PRAGMA
    # secure_delete the user's tokens and vectors are overwritten, not just unlinked.
    return index.erase_user(user.pk)
