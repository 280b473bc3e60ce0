"""Storing a fact: de-duplicate, arbitrate a contradiction, or insert; and the row steps other writes share."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from core.errors import NotFound
from facts import arbitration
from facts.entities import tag_fact
from facts.guard import check_entity_names, check_fact_text, check_identifier
from facts.models import LIVE, ActorKind, AppliedChange, Edge, Fact, HistoryAction, MemoryUser, Status, Tenant, Turn
from facts.services.actors import Actor
from facts.services.budgets import check_budget, check_value_json, fact_chars, same_meter, value_json_chars
from facts.services.changes import announce_facts_changed, record, snapshot
from facts.services.memory_mode import check_can_store, needs_confirmation
from facts.services.normalise import normalise_category, normalise_key, text_hash
from facts.services.users import lock_user, memory_user_get_or_create


@dataclass
class StoreResult:
    fact: Fact
    outcome: str  # created | duplicate | superseded | pending | idempotent
    replaced: Fact | None = None
    touched: list[int] = field(default_factory=list)

    @property
    def created(self) -> bool:
        return self.outcome in {"created", "superseded", "pending"}


@dataclass(frozen=True)
class FactDraft:
    """The checked fields of a fact about to be inserted."""

    text: str
    digest: str  # text_hash(text)
    category: str
    key: str
    confidence: float
    valid_from: datetime
    event_time: datetime | None = None
    value_json: Any = None
    source_turn: Turn | None = None
    source_excerpt: str = ""


def fact_get(*, tenant: Tenant, fact_id: UUID) -> Fact:
    """The tenant's fact with this public id, and its person. The caller names the fact alone,
    so on PostgreSQL the first read is planned on every partition of the facts (kept to that
    one table: joined to itself for the links, each partition was planned three times, 25 of
    31 ms at 64 partitions); the row is then read in its person's. What an answer shows of its
    links is read naming the person too (facts.selectors.attach_output_links)."""
    found = Fact.objects.filter(tenant=tenant, uuid=fact_id).values_list("pk", "user_id").first()
    if found is None:
        raise NotFound("Fact not found.")
    pk, user_id = found
    fact = Fact.objects.select_related("user").filter(pk=pk, user_id=user_id).first()
    if fact is None:  # forgotten between the two reads
        raise NotFound("Fact not found.")
    return fact


@transaction.atomic
def facts_store_for_user(
    *, tenant: Tenant, user_id: str, actor: Actor, facts: list[dict[str, Any]]
) -> list[StoreResult]:
    """Store facts (each the keyword arguments of `fact_store`) for the tenant's user, creating
    the user if new: one transaction, so a fact refused by the write path leaves no new user
    and none of the others behind. The doors that store directly (REST, MCP, mem0) call this."""
    user = memory_user_get_or_create(tenant=tenant, user_id=user_id)
    return [fact_store(user=user, actor=actor, **fields) for fields in facts]


@transaction.atomic
def fact_store(
    *,
    user: MemoryUser,
    text: str,
    actor: Actor,
    category: str | None = None,
    key: str | None = None,
    confidence: float | None = None,
    valid_from: datetime | None = None,
    event_time: datetime | None = None,
    value_json: Any = None,
    entities: list[str] | None = None,
    source_turn: Turn | None = None,
    source_excerpt: str = "",
    idempotency_key: str | None = None,
    contradicts: Fact | None = None,
) -> StoreResult:
    """Store one fact: de-duplicate, arbitrate a contradiction, or insert.

    The contradicted fact is `contradicts` when the caller names one (an
    extractor's supersede) and it is still live, else the user's live fact with
    the same key. Either way the confidence policy decides.
    """
    text, entities = _checked(text, entities, key, value_json)
    lock_user(user)
    # The person's memory mode: read_only and off let nothing new in (issue 37).
    check_can_store(user, actor)
    category = normalise_category(category)
    key = normalise_key(key)
    now = timezone.now()
    replayed = _replayed(idempotency_key) if idempotency_key else None
    if replayed is not None:
        return replayed

    digest = text_hash(text)
    existing, current = _duplicate_and_contradicted(user, digest, key, contradicts)
    if existing is not None:
        hint = confidence if _hint_is_trusted(actor, existing.category, None) else None
        result = StoreResult(_refresh(existing, actor, hint, now), "duplicate")
    else:
        draft = FactDraft(
            text=text,
            digest=digest,
            category=category,
            key=key,
            confidence=arbitration.first_mention_confidence(
                confidence, hint_is_trusted=_hint_is_trusted(actor, category, current)
            ),
            valid_from=valid_from or now,
            event_time=event_time,
            value_json=value_json,
            source_turn=source_turn,
            source_excerpt=source_excerpt,
        )
        result = _insert_or_hold(user, draft, actor, now, current=current)
        tag_fact(result.fact, entities)
    _record_and_announce(user, result, idempotency_key)
    return result


def _checked(text: str, entities: list[str] | None, key: str | None, value_json: Any) -> tuple[str, list[str] | None]:
    """The fact's words and entity names as stored; anything malformed is refused (422), the
    text's fault first."""
    text, names = check_fact_text(text), check_entity_names(entities)
    check_identifier(key, "key")
    check_value_json(value_json)
    return text, names


def _record_and_announce(user: MemoryUser, result: StoreResult, idempotency_key: str | None) -> None:
    """The idempotency key's row (a replay answers from it), then one signal for what changed."""
    if idempotency_key:
        AppliedChange.objects.create(user=user, idempotency_key=idempotency_key, fact_uuid=result.fact.uuid)
    if result.touched:
        announce_facts_changed(user, result.touched)


def _hint_is_trusted(actor: Actor, category: str, current: Fact | None) -> bool:
    """An extractor's confidence is the model's own number: for a high-risk fact it is
    not evidence (docs/design.md, the confidence policy); a client's or staff's is."""
    return actor.kind != ActorKind.EXTRACTOR or not arbitration.touches_high_risk(category, current)


def _replayed(idempotency_key: str) -> StoreResult | None:
    """The fact an earlier delivery of this change stored, if it still exists."""
    done = AppliedChange.objects.filter(idempotency_key=idempotency_key).first()
    # The ledger row names the person (its key is unique across people): so does the read of the fact.
    fact = Fact.objects.filter(user_id=done.user_id, uuid=done.fact_uuid).first() if done and done.fact_uuid else None
    return StoreResult(fact, "idempotent") if fact is not None else None


def _duplicate_and_contradicted(
    user: MemoryUser, digest: str, key: str, contradicts: Fact | None
) -> tuple[Fact | None, Fact | None]:
    """The user's newest live or pending fact with the same normalised text (a duplicate), and the
    fact a new one contradicts: `contradicts` while it is live, else the user's newest live fact
    with the same key. One read for both: they were two for every fact stored (issue 36)."""
    same_text = Q(text_hash=digest, status__in=[Status.ACTIVE, Status.PENDING], valid_to=None)
    named = contradicts if contradicts is not None and contradicts.is_live else None
    same_key = bool(key) and named is None
    wanted = same_text | (LIVE & Q(key=key)) if same_key else same_text
    rows = list(Fact.objects.filter(user=user).filter(wanted).order_by("-created_at"))
    duplicate = next(
        (f for f in rows if f.text_hash == digest and f.status in _NOT_RETIRED and f.valid_to is None), None
    )
    if not same_key:
        return duplicate, named
    return duplicate, next((f for f in rows if f.key == key and f.status == Status.ACTIVE and f.valid_to is None), None)


_NOT_RETIRED = (Status.ACTIVE, Status.PENDING)


def _insert_or_hold(
    user: MemoryUser, draft: FactDraft, actor: Actor, now: datetime, *, current: Fact | None
) -> StoreResult:
    """Insert the draft (superseding `current`), or hold it for staff when the policy says so."""
    # A change held for staff is metered as if it were applied: approving it must fit too.
    freed = fact_chars(current) if current and same_meter(current.category, draft.category) else 0
    check_budget(user, draft.category, len(draft.text) + value_json_chars(draft.value_json), freed)
    # The person asked to confirm every change (memory mode confirm), or the policy holds it.
    if needs_confirmation(user, actor):
        fact = insert_fact(user, draft, actor, now=now, status=Status.PENDING, replaces=current)
        return StoreResult(fact, "pending", replaced=current, touched=[fact.pk])
    if current is not None and arbitration.needs_confirmation(
        old=current, new_category=draft.category, new_confidence=draft.confidence
    ):
        fact = insert_fact(user, draft, actor, now=now, status=Status.PENDING, replaces=current)
        return StoreResult(fact, "pending", replaced=current, touched=[fact.pk])
    fact = insert_fact(user, draft, actor, now=now, chain_id=current.chain_id if current else None)
    if current is None:
        return StoreResult(fact, "created", touched=[fact.pk])
    retire_superseded(current, fact, actor, now, reason="same key, new value")
    return StoreResult(fact, "superseded", replaced=current, touched=[current.pk, fact.pk])


def insert_fact(
    user: MemoryUser,
    draft: FactDraft,
    actor: Actor,
    *,
    now: datetime,
    status: str = Status.ACTIVE,
    replaces: Fact | None = None,
    chain_id: UUID | None = None,
) -> Fact:
    fact = Fact(
        tenant_id=user.tenant_id,
        user=user,
        key=draft.key,
        text=draft.text,
        text_hash=draft.digest,
        category=draft.category,
        confidence=draft.confidence,
        status=status,
        valid_from=draft.valid_from,
        event_time=draft.event_time,
        value_json=draft.value_json,
        source_turn=draft.source_turn,
        source_excerpt=(draft.source_excerpt or "")[:1000],
        replaces=replaces,
        created_at=now,
        updated_at=now,
        last_mentioned_at=now,
    )
    # A replacement or a pending candidate joins the chain of the fact it replaces.
    if replaces is not None:
        fact.chain_id = replaces.chain_id
    elif chain_id is not None:
        fact.chain_id = chain_id
    else:
        fact.chain_id = fact.uuid
    fact.save()
    action = HistoryAction.PENDING if status == Status.PENDING else HistoryAction.INSERT
    reason = "waits for staff confirmation" if status == Status.PENDING else ""
    record(fact, action, actor, after=snapshot(fact), reason=reason)
    return fact


def _refresh(fact: Fact, actor: Actor, confidence: float | None, now: datetime) -> Fact:
    before = snapshot(fact)
    fact.mention_count += 1
    fact.last_mentioned_at = now
    fact.confidence = max(arbitration.reinforce(fact.confidence), min(confidence or 0.0, 1.0))
    fact.updated_at = now
    fact.save(update_fields=["mention_count", "last_mentioned_at", "confidence", "updated_at"])
    record(fact, HistoryAction.REFRESH, actor, before=before, after=snapshot(fact), reason="mentioned again")
    return fact


def retire_superseded(old: Fact, new: Fact, actor: Actor, now: datetime, *, reason: str) -> None:
    """Mark `old` superseded by `new` (which is already saved), with its edges."""
    before = snapshot(old)
    old.status = Status.SUPERSEDED
    old.valid_to = max(new.valid_from, old.valid_from)
    old.superseded_by = new
    old.updated_at = now
    # Each statement names the person (PostgreSQL plans its partition only; by id alone, all).
    mine = {"user_id": old.user_id}
    Fact.objects.filter(pk=old.pk, **mine).update(
        status=old.status, valid_to=old.valid_to, superseded_by=new, updated_at=now
    )
    # Edges are valid while their provenance fact is (docs/design.md §2): retire them with it.
    Edge.objects.filter(fact=old, valid_to=None, **mine).update(valid_to=old.valid_to)
    record(old, HistoryAction.SUPERSEDE, actor, before=before, after=snapshot(old), reason=reason)
