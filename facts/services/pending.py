"""The confirmation queue: staff approve or reject a change that waits for them."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.errors import Conflict
from facts.guard import check_fact_text
from facts.models import Edge, Fact, HistoryAction, Status
from facts.services.actors import Actor
from facts.services.budgets import check_budget, fact_chars, same_meter, value_json_chars
from facts.services.changes import announce_facts_changed, record, snapshot
from facts.services.normalise import text_hash
from facts.services.store import retire_superseded


def supersede_target(fact: Fact) -> Fact | None:
    """The live fact that approving the pending `fact` would supersede, if any.

    The fact it was proposed against while that is still live, else the user's
    other live fact with the same key.
    """
    if fact.replaces and fact.replaces.is_live:
        return fact.replaces
    if fact.key:
        return Fact.objects.live().filter(user_id=fact.user_id, key=fact.key).exclude(pk=fact.pk).first()
    return None


def _claim_pending(fact: Fact, new_status: str, now: datetime) -> Fact:
    # Compare-and-set: when two staff decide at once, only one update matches.
    claimed = Fact.objects.filter(pk=fact.pk, status=Status.PENDING).update(status=new_status, updated_at=now)
    if claimed != 1:
        current = Fact.objects.filter(pk=fact.pk).values_list("status", flat=True).first()
        raise Conflict(f"This change was already decided ({current or 'deleted'}).")
    return Fact.objects.select_related("user", "replaces").get(pk=fact.pk)


@transaction.atomic
def pending_approve(*, fact: Fact, actor: Actor, text: str | None = None) -> Fact:
    """Approve a pending change: it becomes live and supersedes what it replaces."""
    now = timezone.now()
    before = snapshot(fact)
    fact = _claim_pending(fact, Status.ACTIVE, now)
    if text is not None and text.strip() != fact.text:
        fact.text = check_fact_text(text)
        fact.text_hash = text_hash(fact.text)
    target = supersede_target(fact)
    # The approved text joins the live facts: it must fit the user's budget (edited or not).
    freed = fact_chars(target) if target is not None and same_meter(target.category, fact.category) else 0
    check_budget(fact.user, fact.category, len(fact.text) + value_json_chars(fact.value_json), freed)
    fact.confidence = max(fact.confidence, settings.MEMORY_CONFIRMED_CONFIDENCE)
    fact.valid_from = now
    fact.save(update_fields=["text", "text_hash", "confidence", "valid_from"])
    # The edges held with this change (facts.extraction.apply) become valid now.
    Edge.objects.filter(fact=fact).exclude(valid_to=None).update(valid_from=now, valid_to=None)
    touched = [fact.pk]
    if target is not None:
        retire_superseded(target, fact, actor, now, reason="confirmed by staff")
        touched.append(target.pk)
    record(fact, HistoryAction.CONFIRM, actor, before=before, after=snapshot(fact), reason="approved")
    announce_facts_changed(fact.user, touched)
    return fact


@transaction.atomic
def pending_reject(*, fact: Fact, actor: Actor, reason: str = "rejected") -> Fact:
    now = timezone.now()
    before = snapshot(fact)
    fact = _claim_pending(fact, Status.REJECTED, now)
    fact.valid_to = now
    fact.save(update_fields=["valid_to"])
    record(fact, HistoryAction.REJECT, actor, before=before, after=snapshot(fact), reason=reason)
    announce_facts_changed(fact.user, [fact.pk])
    return fact
