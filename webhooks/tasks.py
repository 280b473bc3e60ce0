"""The outbox's sweep, run by Celery beat every MEMORY_WEBHOOK_SWEEP_SECONDS, and the hourly
pruning of the delivery log. Their messages carry no words (the payloads are read from the
rows), so they need no user tag."""

from __future__ import annotations

from celery import shared_task

from webhooks.services import deliver_due, prune_log


@shared_task(name="webhooks.deliver_due")
def deliver_due_task() -> dict[str, int]:
    sweep = deliver_due()
    return {"delivered": sweep.delivered, "failed": sweep.failed, "given_up": sweep.given_up}


@shared_task(name="webhooks.prune_log")
def prune_log_task() -> dict[str, int]:
    return {"pruned": prune_log()}
