"""What becomes a webhook event, written to the outbox inside the transaction of the change.

- Every change to a fact appends one FactHistory entry (facts.services.changes.record), in
  the change's transaction: its action says which event it is, its snapshot what to send.
  (facts_changed, sent after commit, carries only ids and would lose the event to a crash
  between the commit and the outbox write.)
- An erase: `user_erasing` drops what is queued about the user and strips the log; the
  receipt, saved in the same transaction, becomes `user.erased` (its id and the user's hash).
- A forget: `facts_forgetting` strips the facts' text from every delivery about them.
- A turn whose extraction failed: `turn_failed`.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from facts.models import DeletionReceipt, FactHistory, HistoryAction, MemoryUser, Turn
from facts.signals import facts_forgetting, turn_failed, user_erasing
from webhooks import services


def _fact_events(entry: FactHistory) -> list[str]:
    action = entry.action
    # A correction is a new version in the old fact's chain (the old one is retired).
    went_live = "fact.changed" if entry.chain_id != entry.fact_uuid else "fact.created"
    if action == HistoryAction.INSERT:
        return [went_live]
    if action == HistoryAction.REFRESH:
        return ["fact.changed"]
    if action in (HistoryAction.SUPERSEDE, HistoryAction.EXPIRE, HistoryAction.DELETE):
        return ["fact.retired"]
    if action == HistoryAction.PENDING:
        return ["change.pending"]
    if action == HistoryAction.CONFIRM:
        return ["change.decided", went_live]
    if action == HistoryAction.REJECT:
        return ["change.decided"]
    return []


@receiver(post_save, sender=FactHistory, dispatch_uid="webhooks.fact_history")
def _on_fact_history(sender: type[FactHistory], instance: FactHistory, created: bool, **kwargs: Any) -> None:
    if not created:
        return
    events = _fact_events(instance)
    if not events:
        return
    # The endpoints first: a tenant without one (most) costs one read per change, not two.
    active = services.active_endpoints(instance.tenant_id)
    if not any(event in (e.events or []) for e in active for event in events):
        return
    external_id = MemoryUser.objects.filter(pk=instance.user_id).values_list("external_id", flat=True).first()
    # The snapshot after the change, or before it for a delete (which keeps no text).
    fact = dict(instance.after or instance.before or {"id": str(instance.fact_uuid)})
    data = {
        "user_id": external_id,
        "fact": fact,
        "action": instance.action,
        "reason": instance.reason,
        "actor_kind": instance.actor_kind,
        "source_turn_id": instance.source_turn_id or None,
    }
    if instance.action in (HistoryAction.CONFIRM, HistoryAction.REJECT):
        data["decision"] = "approved" if instance.action == HistoryAction.CONFIRM else "rejected"
    for event in events:
        services.enqueue(
            tenant_id=instance.tenant_id,
            event=event,
            data=data,
            user_pk=instance.user_id,
            fact_uuid=instance.fact_uuid,
            active=active,
        )


@receiver(user_erasing, dispatch_uid="webhooks.user_erasing")
def _on_user_erasing(sender: object, user: MemoryUser, count_only: bool = False, **kwargs: Any) -> dict[str, int]:
    return {"webhook_deliveries": services.drop_user(user_pk=user.pk, count_only=count_only)}


@receiver(post_save, sender=DeletionReceipt, dispatch_uid="webhooks.user_erased")
def _on_receipt(sender: type[DeletionReceipt], instance: DeletionReceipt, created: bool, **kwargs: Any) -> None:
    if created and instance.scope == "user":
        # No personal data: what the receipt shows (its id and the user's hash).
        data = {"receipt_id": instance.pk, "user_hash": instance.user_hash, "counts": instance.counts}
        services.enqueue(tenant_id=instance.tenant_id, event="user.erased", data=data)


@receiver(facts_forgetting, dispatch_uid="webhooks.facts_forgetting")
def _on_facts_forgetting(sender: object, user: MemoryUser, fact_uuids: list[str], **kwargs: Any) -> None:
    services.strip_facts(fact_uuids=fact_uuids)


@receiver(turn_failed, dispatch_uid="webhooks.turn_failed")
def _on_turn_failed(sender: object, turn_pk: int, **kwargs: Any) -> None:
    turn = Turn.objects.select_related("user").filter(pk=turn_pk).first()
    if turn is None:
        return
    data = {
        "user_id": turn.user.external_id,
        "turn_id": turn.turn_id,
        "session_id": turn.session_id,
        "attempts": turn.attempts,
    }
    services.enqueue(tenant_id=turn.tenant_id, event="turn.failed", data=data, user_pk=turn.user_id)
