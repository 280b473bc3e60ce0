"""Changing a stored fact: supersede it with a correction, expire it, or forget it."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from facts.entities import tag_fact
from facts.guard import check_entity_names, check_fact_text
from facts.models import Fact, FactHistory, HistoryAction, MemoryUser, Status, Turn
from facts.services.actors import Actor
from facts.services.budgets import check_budget, same_meter
from facts.services.changes import announce_facts_changed, record, snapshot, withdraw_episodes
from facts.services.normalise import normalise_category, normalise_key, text_hash
from facts.services.store import FactDraft, insert_fact, retire_superseded
from facts.signals import facts_forgetting
from memory_service.db import journal
from memory_service.db.scrub import scrub_after_commit
from memory_service.errors import Conflict, Rejected


@transaction.atomic
def fact_supersede(
    *,
    fact: Fact,
    text: str,
    actor: Actor,
    category: str | None = None,
    key: str | None = None,
    confidence: float | None = None,
    entities: list[str] | None = None,
    source_turn=None,
    source_excerpt: str = "",
    reason: str = "replaced",
) -> Fact:
    """Retire `fact` and insert its replacement in one transaction (PATCH)."""
    text = check_fact_text(text)
    entities = check_entity_names(entities)
    old = Fact.objects.select_for_update().select_related("user").get(pk=fact.pk)
    if not old.is_live:
        raise Conflict(f"Only a live fact can be superseded; this one is {old.status}.")
    category = normalise_category(category or old.category)
    new_conf = old.confidence if confidence is None else min(max(confidence, 0.0), 1.0)
    check_budget(old.user, category, len(text), len(old.text) if same_meter(old.category, category) else 0)
    now = timezone.now()
    draft = FactDraft(
        text=text,
        digest=text_hash(text),
        category=category,
        key=normalise_key(key) if key is not None else old.key,
        confidence=new_conf,
        valid_from=now,
        source_turn=source_turn,
        source_excerpt=source_excerpt,
    )
    new = insert_fact(old.user, draft, actor, now=now, chain_id=old.chain_id)
    retire_superseded(old, new, actor, now, reason=reason)
    tag_fact(new, entities if entities is not None else [t.entity.display_name for t in old.entity_tags.all()])
    announce_facts_changed(old.user, [old.pk, new.pk])
    return new


@transaction.atomic
def fact_expire(*, fact: Fact, actor: Actor, valid_to: datetime | None = None, reason: str = "") -> Fact:
    """Mark a fact as no longer true from `valid_to` (default now), without a replacement."""
    fact = Fact.objects.select_for_update().select_related("user").get(pk=fact.pk)
    if not fact.is_live:
        raise Conflict(f"Only a live fact can expire; this one is {fact.status}.")
    before = snapshot(fact)
    now = timezone.now()
    fact.valid_to = max(valid_to or now, fact.valid_from)
    fact.status = Status.EXPIRED
    fact.updated_at = now
    fact.save(update_fields=["valid_to", "status", "updated_at"])
    for edge in fact.edges.filter(valid_to=None):
        edge.valid_to = fact.valid_to
        edge.save(update_fields=["valid_to"])
    record(fact, HistoryAction.EXPIRE, actor, before=before, after=snapshot(fact), reason=reason)
    announce_facts_changed(fact.user, [fact.pk])
    return fact


def _forget(fact: Fact, actor: Actor, reason: str) -> None:
    # Derived copies of the words (stored profile versions) go in the same transaction.
    facts_forgetting.send(sender=Fact, user=fact.user, fact_uuids=[str(fact.uuid)])
    # History keeps that the fact existed and was forgotten, never its words.
    FactHistory.objects.filter(fact_uuid=fact.uuid).update(before=None, after=None)
    # Nor may the turn it came from bring the words back through episode recall
    # (docs/design.md §10): that turn's episode is withdrawn.
    if fact.source_turn_id:
        Turn.objects.filter(pk=fact.source_turn_id).update(episode_withdrawn=True)
        withdraw_episodes(fact.user_id, [fact.source_turn_id])
        # The other facts stated in that turn were indexed with its whole message
        # (recall/index.py); re-indexed, they keep only their own excerpt.
        siblings = Fact.objects.live().filter(source_turn_id=fact.source_turn_id).exclude(pk=fact.pk)
        if sibling_ids := list(siblings.values_list("pk", flat=True)):
            announce_facts_changed(fact.user, sibling_ids)
    record(fact, HistoryAction.DELETE, actor, before=snapshot(fact, with_text=False), reason=reason)
    fact.delete()


@transaction.atomic
def fact_forget(*, fact: Fact, actor: Actor) -> None:
    """Forget one fact: every door (REST, MCP, mem0, dashboard) calls this or `facts_forget`."""
    facts_forget(facts=[fact], actor=actor, reason="forgotten on request")


@transaction.atomic
def facts_forget(*, facts: list[Fact], actor: Actor, reason: str) -> int:
    """Forget these facts (the only hard delete, docs/design.md §3): their rows, their index
    entries after commit, their words in history and stored profiles; then the WAL is
    checkpointed so the words leave the database files."""
    forgotten: list[int] = []
    uuids: list[str] = []
    for fact in facts:
        # Reload: forgetting an earlier one may have nulled this one's links (replaces, superseded_by).
        fresh = Fact.objects.select_related("user").filter(pk=fact.pk).first()
        if fresh is None:
            continue
        # Django sets pk to None on delete: keep it for the index sync.
        forgotten.append(fresh.pk)
        uuids.append(str(fresh.uuid))
        _forget(fresh, actor, reason)
    if forgotten:
        announce_facts_changed(facts[0].user, forgotten)
        # A restore of an older backup forgets them again (memory_service/db/journal.py).
        journal.note_facts_forgotten(tenant_id=facts[0].tenant_id, user_pk=facts[0].user_id, fact_uuids=uuids)
    scrub_after_commit()
    return len(forgotten)


@transaction.atomic
def facts_forget_by_key(*, user: MemoryUser, key: str, actor: Actor) -> int:
    """Forget every fact of the user with this key, live or retired."""
    normalised = normalise_key(key)
    if not normalised:
        # "" is the key of every fact stored without one: never a way to delete them all.
        raise Rejected("key_required", f"Give the key of the facts to forget; {key!r} is not a key.")
    facts = list(Fact.objects.filter(user=user, key=normalised).order_by("pk"))
    return facts_forget(facts=facts, actor=actor, reason=f"forgotten with key {normalised!r}")
