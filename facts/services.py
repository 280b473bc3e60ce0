"""The write path (SPEC 3). Every change to a fact goes through these functions.

Each public function is atomic, records FactHistory, bumps the user's
facts_version and announces the touched fact ids after commit (facts.signals).
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Sum
from django.db.models.functions import Length
from django.utils import timezone

from facts import arbitration
from facts.entities import tag_fact
from facts.guard import check_fact_text
from facts.models import (
    PROFILE_CATEGORIES,
    ActorKind,
    AppliedChange,
    Category,
    Fact,
    FactHistory,
    HistoryAction,
    MemoryUser,
    Status,
    Tenant,
)
from facts.signals import facts_changed
from memory_service.errors import Conflict, NotFound, Rejected

logger = logging.getLogger(__name__)

USER_ID_MAX = 128
_USER_ID_OK = re.compile(r"^[^\x00-\x1f\x7f/\\]+$")
_SPACE = re.compile(r"\s+")
_KEY_OK = re.compile(r"[^a-z0-9_.-]+")


@dataclass(frozen=True)
class Actor:
    kind: str
    id: str = ""

    @classmethod
    def api_key(cls, key) -> Actor:
        return cls(ActorKind.API_KEY, f"{key.name}:{key.prefix}")

    @classmethod
    def staff(cls, user) -> Actor:
        return cls(ActorKind.STAFF, user.get_username())

    @classmethod
    def extractor(cls, name: str = "llm") -> Actor:
        return cls(ActorKind.EXTRACTOR, name)


SYSTEM = Actor(ActorKind.SYSTEM, "system")


@dataclass
class StoreResult:
    fact: Fact
    outcome: str  # created | duplicate | superseded | pending | idempotent
    replaced: Fact | None = None
    touched: list[int] = field(default_factory=list)

    @property
    def created(self) -> bool:
        return self.outcome in {"created", "superseded", "pending"}


# --- Helpers ---------------------------------------------------------------------


def validate_user_id(user_id: str) -> str:
    if not user_id or len(user_id) > USER_ID_MAX or not _USER_ID_OK.match(user_id):
        raise Rejected("user_id", f"user_id must be 1-{USER_ID_MAX} printable characters without slashes.")
    return user_id


def normalise_key(key: str | None) -> str:
    return _KEY_OK.sub("_", (key or "").strip().lower()).strip("_")[:64]


def normalise_category(category: str | None) -> str:
    return category if category in Category.values else Category.OTHER


def text_hash(text: str) -> str:
    folded = _SPACE.sub(" ", text.strip().casefold()).rstrip(".!? ")
    return hashlib.sha1(folded.encode()).hexdigest()


def snapshot(fact: Fact, *, with_text: bool = True) -> dict:
    data = {
        "id": str(fact.uuid),
        "key": fact.key,
        "category": fact.category,
        "confidence": fact.confidence,
        "status": fact.status,
        "valid_from": fact.valid_from.isoformat() if fact.valid_from else None,
        "valid_to": fact.valid_to.isoformat() if fact.valid_to else None,
        "superseded_by": str(fact.superseded_by.uuid) if fact.superseded_by_id else None,
        "replaces": str(fact.replaces.uuid) if fact.replaces_id else None,
    }
    if with_text:
        data["text"] = fact.text
    return data


def _record(fact: Fact, action: str, actor: Actor, *, before=None, after=None, reason: str = "") -> None:
    FactHistory.objects.create(
        tenant_id=fact.tenant_id,
        user_id=fact.user_id,
        fact_uuid=fact.uuid,
        chain_id=fact.chain_id,
        action=action,
        before=before,
        after=after,
        actor_kind=actor.kind,
        actor_id=actor.id,
        source_turn_id=fact.source_turn.turn_id if fact.source_turn_id else "",
        reason=reason,
    )


def _announce(user: MemoryUser, fact_ids: list[int]) -> None:
    MemoryUser.objects.filter(pk=user.pk).update(facts_version=F("facts_version") + 1)
    ids = list(dict.fromkeys(fact_ids))

    def send() -> None:
        # The change is committed: a failing receiver (say, the broker is down)
        # must not turn it into an error, or the client's retry would count as a
        # repetition. The index catches up via rebuild_recall_index/reindex_embeddings.
        for receiver, result in facts_changed.send_robust(
            sender=Fact, tenant_id=user.tenant_id, user_id=user.pk, fact_ids=ids
        ):
            if isinstance(result, Exception):
                logger.error("facts_changed receiver %r failed for %d facts: %s", receiver, len(ids), result)

    transaction.on_commit(send)


def _same_meter(a: str, b: str) -> bool:
    return (a in PROFILE_CATEGORIES) == (b in PROFILE_CATEGORIES)


def _check_budget(user: MemoryUser, category: str, added_chars: int, freed_chars: int = 0) -> None:
    profile = category in PROFILE_CATEGORIES
    meter = Fact.objects.live().filter(user=user)
    meter = meter.filter(category__in=PROFILE_CATEGORIES) if profile else meter.exclude(category__in=PROFILE_CATEGORIES)
    used = meter.aggregate(n=Sum(Length("text")))["n"] or 0
    limit = settings.MEMORY_PROFILE_BUDGET_CHARS if profile else settings.MEMORY_OTHER_BUDGET_CHARS
    if used - freed_chars + added_chars > limit:
        rule = "profile_budget" if profile else "user_budget"
        kind = "profile" if profile else "non-profile"
        raise Rejected(
            rule,
            f"This user's live {kind} facts would use {used - freed_chars + added_chars} characters; "
            f"the budget is {limit}. Forget or expire facts first.",
        )


# --- Users ------------------------------------------------------------------------


def memory_user_get(*, tenant: Tenant, user_id: str) -> MemoryUser:
    """The tenant's user, or NotFound (also for other tenants' users)."""
    user = MemoryUser.objects.filter(tenant=tenant, external_id=user_id).first()
    if user is None:
        raise NotFound("User not found.")
    return user


def memory_user_get_or_create(*, tenant: Tenant, user_id: str) -> MemoryUser:
    validate_user_id(user_id)
    try:
        with transaction.atomic():
            user, _ = MemoryUser.objects.get_or_create(tenant=tenant, external_id=user_id)
    except IntegrityError:  # created by a concurrent writer in between
        user = MemoryUser.objects.get(tenant=tenant, external_id=user_id)
    return user


def fact_get(*, tenant: Tenant, fact_id) -> Fact:
    fact = Fact.objects.select_related("user", "superseded_by", "replaces").filter(tenant=tenant, uuid=fact_id).first()
    if fact is None:
        raise NotFound("Fact not found.")
    return fact


# --- Store --------------------------------------------------------------------------


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
    value_json=None,
    entities: list[str] | None = None,
    source_turn=None,
    source_excerpt: str = "",
    idempotency_key: str | None = None,
    contradicts: Fact | None = None,
) -> StoreResult:
    """Store one fact: de-duplicate, arbitrate a contradiction, or insert.

    The contradicted fact is `contradicts` when the caller names one (an
    extractor's supersede) and it is still live, else the user's live fact with
    the same key. Either way the confidence policy decides.
    """
    text = check_fact_text(text)
    category = normalise_category(category)
    key = normalise_key(key)
    now = timezone.now()

    if idempotency_key:
        done = AppliedChange.objects.filter(idempotency_key=idempotency_key).first()
        if done:
            fact = Fact.objects.filter(uuid=done.fact_uuid).first()
            if fact is not None:
                return StoreResult(fact, "idempotent")

    digest = text_hash(text)
    existing = (
        Fact.objects.filter(user=user, text_hash=digest, status__in=[Status.ACTIVE, Status.PENDING], valid_to=None)
        .order_by("-created_at")
        .first()
    )
    if existing is not None:
        result = StoreResult(_refresh(existing, actor, confidence, now), "duplicate")
    else:
        confidence = arbitration.first_mention_confidence(confidence)
        current = contradicts if contradicts is not None and contradicts.is_live else None
        if current is None and key:
            current = Fact.objects.live().filter(user=user, key=key).order_by("-created_at").first()
        if current is not None and arbitration.needs_confirmation(
            old=current, new_category=category, new_confidence=confidence
        ):
            fact = _insert(
                user,
                text,
                digest,
                category,
                key,
                confidence,
                valid_from or now,
                event_time,
                value_json,
                source_turn,
                source_excerpt,
                actor,
                status=Status.PENDING,
                replaces=current,
                now=now,
            )
            result = StoreResult(fact, "pending", replaced=current, touched=[fact.pk])
        else:
            freed = len(current.text) if current and _same_meter(current.category, category) else 0
            _check_budget(user, category, len(text), freed)
            fact = _insert(
                user,
                text,
                digest,
                category,
                key,
                confidence,
                valid_from or now,
                event_time,
                value_json,
                source_turn,
                source_excerpt,
                actor,
                now=now,
                chain_id=current.chain_id if current else None,
            )
            if current is not None:
                _retire_superseded(current, fact, actor, now, reason="same key, new value")
                result = StoreResult(fact, "superseded", replaced=current, touched=[current.pk, fact.pk])
            else:
                result = StoreResult(fact, "created", touched=[fact.pk])
        tag_fact(fact, entities)

    if idempotency_key:
        AppliedChange.objects.create(user=user, idempotency_key=idempotency_key, fact_uuid=result.fact.uuid)
    if result.touched:
        _announce(user, result.touched)
    return result


def _insert(
    user,
    text,
    digest,
    category,
    key,
    confidence,
    valid_from,
    event_time,
    value_json,
    source_turn,
    source_excerpt,
    actor,
    *,
    now,
    status=Status.ACTIVE,
    replaces=None,
    chain_id=None,
) -> Fact:
    fact = Fact(
        tenant_id=user.tenant_id,
        user=user,
        key=key,
        text=text,
        text_hash=digest,
        category=category,
        confidence=confidence,
        status=status,
        valid_from=valid_from,
        event_time=event_time,
        value_json=value_json,
        source_turn=source_turn,
        source_excerpt=(source_excerpt or "")[:1000],
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
    _record(fact, action, actor, after=snapshot(fact), reason=reason)
    return fact


def _refresh(fact: Fact, actor: Actor, confidence: float | None, now) -> Fact:
    before = snapshot(fact)
    fact.mention_count += 1
    fact.last_mentioned_at = now
    fact.confidence = max(arbitration.reinforce(fact.confidence), min(confidence or 0.0, 1.0))
    fact.updated_at = now
    fact.save(update_fields=["mention_count", "last_mentioned_at", "confidence", "updated_at"])
    _record(fact, HistoryAction.REFRESH, actor, before=before, after=snapshot(fact), reason="mentioned again")
    return fact


def _retire_superseded(old: Fact, new: Fact, actor: Actor, now, *, reason: str) -> None:
    before = snapshot(old)
    old.status = Status.SUPERSEDED
    old.valid_to = max(new.valid_from, old.valid_from)
    old.superseded_by = new
    old.updated_at = now
    old.save(update_fields=["status", "valid_to", "superseded_by", "updated_at"])
    # Edges are valid while their provenance fact is (SPEC 2): retire them with it.
    old.edges.filter(valid_to=None).update(valid_to=old.valid_to)
    _record(old, HistoryAction.SUPERSEDE, actor, before=before, after=snapshot(old), reason=reason)


# --- Supersede, expire, forget --------------------------------------------------------


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
    old = Fact.objects.select_for_update().select_related("user").get(pk=fact.pk)
    if not old.is_live:
        raise Conflict(f"Only a live fact can be superseded; this one is {old.status}.")
    category = normalise_category(category or old.category)
    new_conf = old.confidence if confidence is None else min(max(confidence, 0.0), 1.0)
    _check_budget(old.user, category, len(text), len(old.text) if _same_meter(old.category, category) else 0)
    now = timezone.now()
    new = _insert(
        old.user,
        text,
        text_hash(text),
        category,
        normalise_key(key) if key is not None else old.key,
        new_conf,
        now,
        None,
        None,
        source_turn,
        source_excerpt,
        actor,
        now=now,
        chain_id=old.chain_id,
    )
    _retire_superseded(old, new, actor, now, reason=reason)
    tag_fact(new, entities if entities is not None else [t.entity.display_name for t in old.entity_tags.all()])
    _announce(old.user, [old.pk, new.pk])
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
    _record(fact, HistoryAction.EXPIRE, actor, before=before, after=snapshot(fact), reason=reason)
    _announce(fact.user, [fact.pk])
    return fact


def _forget(fact: Fact, actor: Actor, reason: str) -> None:
    # History keeps that the fact existed and was forgotten, never its words.
    FactHistory.objects.filter(fact_uuid=fact.uuid).update(before=None, after=None)
    _record(fact, HistoryAction.DELETE, actor, before=snapshot(fact, with_text=False), reason=reason)
    fact.delete()


@transaction.atomic
def fact_forget(*, fact: Fact, actor: Actor) -> None:
    user, pk = fact.user, fact.pk
    _forget(fact, actor, "forgotten on request")
    _announce(user, [pk])


@transaction.atomic
def facts_forget_by_key(*, user: MemoryUser, key: str, actor: Actor) -> int:
    """Forget every fact of the user with this key, live or retired."""
    facts = list(Fact.objects.filter(user=user, key=normalise_key(key)))
    for fact in facts:
        # Reload: forgetting an earlier one may have nulled this one's links (replaces, superseded_by).
        fact.refresh_from_db()
        _forget(fact, actor, f"forgotten with key {fact.key!r}")
    if facts:
        _announce(user, [f.pk for f in facts])
    return len(facts)


# --- Confirmation queue decisions --------------------------------------------------------


def _claim_pending(fact: Fact, new_status: str, now) -> Fact:
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
    fact.confidence = max(fact.confidence, settings.MEMORY_CONFIRMED_CONFIDENCE)
    fact.valid_from = now
    fact.save(update_fields=["text", "text_hash", "confidence", "valid_from"])
    target = fact.replaces if fact.replaces_id and fact.replaces.is_live else None
    if target is None and fact.key:
        target = Fact.objects.live().filter(user=fact.user, key=fact.key).exclude(pk=fact.pk).first()
    touched = [fact.pk]
    if target is not None:
        _retire_superseded(target, fact, actor, now, reason="confirmed by staff")
        touched.append(target.pk)
    _record(fact, HistoryAction.CONFIRM, actor, before=before, after=snapshot(fact), reason="approved")
    _announce(fact.user, touched)
    return fact


@transaction.atomic
def pending_reject(*, fact: Fact, actor: Actor, reason: str = "rejected") -> Fact:
    now = timezone.now()
    before = snapshot(fact)
    fact = _claim_pending(fact, Status.REJECTED, now)
    fact.valid_to = now
    fact.save(update_fields=["valid_to"])
    _record(fact, HistoryAction.REJECT, actor, before=before, after=snapshot(fact), reason=reason)
    _announce(fact.user, [fact.pk])
    return fact
