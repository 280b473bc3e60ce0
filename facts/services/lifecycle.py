"""Changing a stored fact: supersede it with a correction, expire it, or forget it."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from core.db import journal
from core.db.rows import delete_unreferenced
from core.errors import Conflict, Rejected
from facts.entities import drop_unreferenced, tag_fact, tag_names
from facts.guard import check_entity_names, check_fact_text, check_identifier
from facts.models import (
    Edge,
    Fact,
    FactEntity,
    FactHistory,
    FactQuerySet,
    HistoryAction,
    MemoryUser,
    SessionCursor,
    Status,
    Turn,
)
from facts.scrub import scrub_after_commit
from facts.services.actors import Actor
from facts.services.budgets import check_budget, fact_chars, same_meter
from facts.services.changes import announce_facts_changed, record, snapshot, withdraw_episodes
from facts.services.memory_mode import check_can_store, needs_confirmation
from facts.services.normalise import normalise_category, normalise_key, text_hash
from facts.services.store import FactDraft, insert_fact, retire_superseded
from facts.services.users import lock_user
from facts.signals import facts_forgetting


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
    source_turn: Turn | None = None,
    source_excerpt: str = "",
    reason: str = "replaced",
) -> Fact:
    """Retire `fact` and insert its replacement in one transaction (PATCH)."""
    text = check_fact_text(text)
    entities = check_entity_names(entities)
    check_identifier(key, "key")
    # The user first, then the fact, as fact_store does: tagging waits for a forget that may
    # delete an entity nothing else refers to, so the forget never deletes one this change is
    # tagging (an insert not yet committed that it cannot see); same order, no deadlock.
    lock_user(fact.user)
    old = _mine(fact).select_for_update().select_related("user").get(pk=fact.pk)
    if not old.is_live:
        raise Conflict(f"Only a live fact can be superseded; this one is {old.status}.")
    check_can_store(old.user, actor)
    category = normalise_category(category or old.category)
    new_conf = old.confidence if confidence is None else min(max(confidence, 0.0), 1.0)
    check_budget(old.user, category, len(text), fact_chars(old) if same_meter(old.category, category) else 0)
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
    tags = entities if entities is not None else tag_names(old)
    if needs_confirmation(old.user, actor):
        # Memory mode confirm: the correction waits in the queue; approving it supersedes `old`.
        held = insert_fact(old.user, draft, actor, now=now, status=Status.PENDING, replaces=old)
        tag_fact(held, tags)
        announce_facts_changed(old.user, [held.pk])
        return held
    new = insert_fact(old.user, draft, actor, now=now, chain_id=old.chain_id)
    retire_superseded(old, new, actor, now, reason=reason)
    tag_fact(new, tags)
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
    """What one forget removes (docs/design.md §3): the row; its edges (cascade) and the entities
    nothing else refers to afterwards; the excerpts of other facts that quote the same words;
    its words in history and in stored profile versions; its index rows and its source turn's
    episode. The source turn itself stays unless the caller withdraws it (`_withdraw_turns`)."""
    # Derived copies of the words (stored profile versions, index rows) go in the same transaction.
    facts_forgetting.send(sender=Fact, user=fact.user, fact_uuids=[str(fact.uuid)])
    # History keeps that the fact existed and was forgotten, never its words.
    FactHistory.objects.filter(user_id=fact.user_id, fact_uuid=fact.uuid).update(before=None, after=None)
    # Nor may the turn it came from bring the words back through episode recall
    # (docs/design.md §10): that turn's episode is withdrawn.
    if fact.source_turn_id:
        Turn.objects.withdraw_episode(fact.source_turn_id, fact.user_id)
        withdraw_episodes(fact.user_id, [fact.source_turn_id])
        _drop_quotes(fact)
        # The other facts stated in that turn were indexed with its whole message
        # (recall/index.py); re-indexed, they keep only their own excerpt.
        siblings = _mine(fact).live().filter(source_turn_id=fact.source_turn_id).exclude(pk=fact.pk)
        if sibling_ids := list(siblings.values_list("pk", flat=True)):
            announce_facts_changed(fact.user, sibling_ids)
    entity_ids = set(fact.entity_tags.values_list("entity_id", flat=True))
    edges = Edge.objects.filter(user_id=fact.user_id, fact_id=fact.pk)
    for src, dst in edges.values_list("src_id", "dst_id"):
        entity_ids.update((src, dst))
    record(fact, HistoryAction.DELETE, actor, before=snapshot(fact, with_text=False), reason=reason)
    _delete_row(fact, edges)
    drop_unreferenced(user=fact.user, entity_ids=entity_ids)


def _mine(fact: Fact) -> FactQuerySet:
    """Its person's facts: on PostgreSQL a statement naming the person is planned on one
    partition, one finding rows by id alone on all of them (docs/measurements.md §20)."""
    return Fact.objects.filter(user_id=fact.user_id)


def _delete_row(fact: Fact, edges: QuerySet[Edge]) -> None:
    """The row, its tags and edges, and the links of the facts that name it as replaced or
    superseding: what the foreign keys' CASCADE and SET_NULL say, each statement naming the
    person (Django's collector would find them by id alone)."""
    edges.delete()
    FactEntity.objects.filter(fact_id=fact.pk).delete()
    _mine(fact).filter(superseded_by_id=fact.pk).update(superseded_by=None)
    _mine(fact).filter(replaces_id=fact.pk).update(replaces=None)
    delete_unreferenced(_mine(fact).filter(pk=fact.pk))


def _same_words(a: str, b: str) -> bool:
    a, b = " ".join(a.casefold().split()), " ".join(b.casefold().split())
    return bool(a and b) and (a in b or b in a)


def _drop_quotes(fact: Fact) -> None:
    """Facts stated in the same message often keep the same sentence as their excerpt ("I live
    in Seoul and work at Samsung"): an excerpt that holds the forgotten one's, or is held in it,
    quotes the forgotten words and is cleared. The other facts keep their own text."""
    others = _mine(fact).filter(source_turn_id=fact.source_turn_id).exclude(pk=fact.pk).exclude(source_excerpt="")
    quoting = [
        pk for pk, excerpt in others.values_list("pk", "source_excerpt") if _same_words(excerpt, fact.source_excerpt)
    ]
    _mine(fact).filter(pk__in=quoting).update(source_excerpt="")


@transaction.atomic
def fact_forget(*, fact: Fact, actor: Actor, withdraw_turn: bool = False) -> None:
    """Forget one fact: every door (REST, MCP, mem0, dashboard) calls this or `facts_forget`."""
    facts_forget(facts=[fact], actor=actor, reason="forgotten on request", withdraw_turns=withdraw_turn)


@transaction.atomic
def facts_forget(*, facts: list[Fact], actor: Actor, reason: str, withdraw_turns: bool = False) -> int:
    """Forget these facts (the only hard delete, docs/design.md §3): their rows, their index
    entries, their words in history, entities, excerpts and stored profiles (`_forget`); with
    `withdraw_turns`, the turns they were stated in too (`_withdraw_turns`). After commit the
    words leave the database files (facts/scrub.py)."""
    forgotten: list[int] = []
    uuids: list[str] = []
    turn_pks: list[int] = []
    # Writers of the same user's entities (fact_store, extraction) wait: an entity this forget
    # finds unreferenced is not tagged again meanwhile.
    for user in {fact.user_id: fact.user for fact in facts}.values():
        lock_user(user)
    for fact in facts:
        # Reload: forgetting an earlier one may have nulled this one's links (replaces, superseded_by).
        fresh = Fact.objects.select_related("user").filter(pk=fact.pk, user_id=fact.user_id).first()
        if fresh is None:
            continue
        # Django sets pk to None on delete: keep it for the index sync.
        forgotten.append(fresh.pk)
        uuids.append(str(fresh.uuid))
        if fresh.source_turn_id:
            turn_pks.append(fresh.source_turn_id)
        _forget(fresh, actor, reason)
    if forgotten:
        announce_facts_changed(facts[0].user, forgotten)
        # A restore of an older backup forgets them again (core/db/journal.py).
        journal.note_facts_forgotten(tenant_id=facts[0].tenant_id, user_pk=facts[0].user_id, fact_uuids=uuids)
    if withdraw_turns and turn_pks:
        _withdraw_turns(facts[0].user, turn_pks)
    scrub_after_commit(users={fact.user_id for fact in facts})
    return len(forgotten)


def _withdraw_turns(user: MemoryUser, turn_pks: list[int]) -> int:
    """Delete these turns of `user` ("forget that I told you this"): the rows with their words,
    their episode index rows, and the excerpts other facts quote from them. The facts stated in
    them stay, unlinked from the turn, and are indexed again without its words."""
    turns = Turn.objects.filter(user=user, pk__in=set(turn_pks))
    pks = list(turns.values_list("pk", flat=True))
    if not pks:
        return 0
    stated = Fact.objects.filter(user=user, source_turn_id__in=pks)
    stated_ids = list(stated.values_list("pk", flat=True))
    stated.update(source_excerpt="", source_turn=None)
    SessionCursor.objects.filter(user=user, last_applied_turn_id__in=pks).update(last_applied_turn=None)
    withdraw_episodes(user.pk, pks)
    # Their facts and session cursors were unlinked above, naming the person (core/db/rows.py).
    delete_unreferenced(turns)
    if stated_ids:
        announce_facts_changed(user, stated_ids)
    # A restore of an older backup withdraws them again (core/db/journal.py).
    journal.note_turns_withdrawn(tenant_id=user.tenant_id, user_pk=user.pk, turn_pks=pks)
    return len(pks)


@transaction.atomic
def turns_withdraw(*, user: MemoryUser, turn_pks: list[int]) -> int:
    """Withdraw these turns of `user` again (a restore re-applying the erasure journal)."""
    lock_user(user)
    withdrawn = _withdraw_turns(user, turn_pks)
    scrub_after_commit(users=[user.pk])
    return withdrawn


@transaction.atomic
def facts_forget_by_key(*, user: MemoryUser, key: str, actor: Actor, withdraw_turns: bool = False) -> int:
    """Forget every fact of the user with this key, live or retired."""
    normalised = normalise_key(key)
    if not normalised:
        # "" is the key of every fact stored without one: never a way to delete them all.
        raise Rejected("key_required", f"Give the key of the facts to forget; {key!r} is not a key.")
    facts = list(Fact.objects.filter(user=user, key=normalised).order_by("pk"))
    reason = f"forgotten with key {normalised!r}"
    return facts_forget(facts=facts, actor=actor, reason=reason, withdraw_turns=withdraw_turns)
