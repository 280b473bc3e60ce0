"""Erase and export one memory user (docs/design.md §8): the right to erasure and of access.

`user_erase` removes every row held about a user in ONE transaction, asks the
apps that derived data from it (recall index, profiles) to remove theirs
through `facts.signals.user_erasing`, keeps a DeletionReceipt without personal
data, and after commit checkpoints the WAL so the erased text leaves the
database files (secure_delete=ON on every connection zeroes freed pages).
"""

from __future__ import annotations

import base64
import hashlib
from collections import defaultdict
from collections.abc import Mapping
from datetime import date, datetime
from decimal import Decimal
from typing import Any
from uuid import UUID

from django.apps import apps
from django.core import serializers
from django.db import transaction
from django.db.models import Count, QuerySet
from django.utils import timezone

from core.db import journal
from facts import services
from facts.models import (
    AppliedChange,
    DeletionReceipt,
    Edge,
    Entity,
    Fact,
    FactEntity,
    FactHistory,
    MemoryModeChange,
    MemoryUser,
    SessionCursor,
    Turn,
)
from facts.scrub import scrub_after_commit
from facts.services import Actor
from facts.signals import user_erasing

EXPORT_FORMAT = "memory-service-export/1"

# Kinds this app holds, in the order they are deleted (children before parents).
OWN_KINDS = (
    "fact_entities",
    "edges",
    "facts",
    "history",
    "entities",
    "cursors",
    "applied_changes",
    "turns",
    "mode_changes",
)

# How the kinds read on the dashboard; kinds from other apps' receivers show their own key.
KIND_LABELS = {
    "facts": "Facts (all statuses)",
    "history": "History entries",
    "entities": "Entities",
    "fact_entities": "Fact-entity tags",
    "edges": "Edges",
    "turns": "Turns",
    "cursors": "Session cursors",
    "applied_changes": "Applied-change ledger rows",
    "mode_changes": "Memory mode changes",
    "fts_rows": "Lexical index rows",
    "vectors": "Vector index rows",
    "episode_rows": "Episode index rows",
    "episode_vectors": "Episode vector rows",
    "profiles": "Profiles",
}


def user_hash(*, tenant_id: UUID, external_id: str) -> str:
    """sha256 of tenant id + user id: a tenant can recompute it to prove an erasure, nobody can read it."""
    return hashlib.sha256(f"{tenant_id}:{external_id}".encode()).hexdigest()


_OWN_LABELS = frozenset(
    m._meta.label
    for m in (
        FactEntity,
        Edge,
        Fact,
        FactHistory,
        Entity,
        SessionCursor,
        AppliedChange,
        Turn,
        MemoryModeChange,
        MemoryUser,
    )
)


def _own_querysets(user: MemoryUser) -> dict[str, QuerySet[Any]]:
    return {
        "fact_entities": FactEntity.objects.filter(fact__user=user),
        "edges": Edge.objects.filter(user=user),
        "facts": Fact.objects.filter(user=user),
        "history": FactHistory.objects.filter(user=user),
        "entities": Entity.objects.filter(user=user),
        "cursors": SessionCursor.objects.filter(user=user),
        "applied_changes": AppliedChange.objects.filter(user=user),
        "turns": Turn.objects.filter(user=user),
        "mode_changes": MemoryModeChange.objects.filter(user=user),
    }


def _add_counts(total: dict[str, int], more: object) -> None:
    # A receiver answers a mapping of kind -> rows deleted, or nothing.
    for kind, n in (more if isinstance(more, Mapping) else {}).items():
        total[str(kind)] = total.get(str(kind), 0) + int(n or 0)


def _delete_everything(user: MemoryUser) -> dict[str, int]:
    """Delete all rows of `user` (caller holds the transaction) and return counts per kind."""
    counts: dict[str, int] = {}
    # Derived data first: the receivers may need the facts to find their rows.
    for _receiver, derived in user_erasing.send(sender=MemoryUser, user=user):
        _add_counts(counts, derived)
    querysets = _own_querysets(user)
    for kind in OWN_KINDS:
        counts[kind] = querysets[kind].count()
    # Self-references between the user's facts would make the collector issue an
    # UPDATE per row; clearing them first lets each table go in one DELETE.
    querysets["facts"].update(superseded_by=None, replaces=None, source_turn=None)
    # Anything another app keeps under a foreign key to these rows (or to the
    # user) and did not delete in its receiver goes with the cascade; it is
    # counted under its model label, not lost.
    cascaded: dict[str, int] = {}
    for kind in OWN_KINDS:
        _add_counts(cascaded, querysets[kind].delete()[1])
    _add_counts(cascaded, MemoryUser.objects.filter(pk=user.pk).delete()[1])
    for label, n in cascaded.items():
        if label not in _OWN_LABELS and n:
            counts[label.lower()] = counts.get(label.lower(), 0) + n
    return _in_display_order(counts)


def _in_display_order(counts: dict[str, int]) -> dict[str, int]:
    """Our kinds in a fixed order, then whatever other apps reported, by name."""
    known = [k for k in KIND_LABELS if k in counts]
    return {k: counts[k] for k in known + sorted(set(counts) - set(known))}


def erase_preview(*, user: MemoryUser) -> dict[str, int]:
    """What erasing `user` would delete, per kind, counted without deleting or locking anything.

    Our own querysets plus what the other apps report through `user_erasing`
    with count_only. (A row another app keeps under a foreign key and leaves
    to the cascade shows only on the receipt; every app here deletes its own.)
    """
    counts: dict[str, int] = {}
    for _receiver, derived in user_erasing.send(sender=MemoryUser, user=user, count_only=True):
        _add_counts(counts, derived)
    querysets = _own_querysets(user)
    for kind in OWN_KINDS:
        counts[kind] = querysets[kind].count()
    return _in_display_order(counts)


def _keep_receipt(
    *, tenant_id: UUID, external_id: str, scope: str, counts: dict[str, Any], actor: Actor
) -> DeletionReceipt:
    return DeletionReceipt.objects.create(
        tenant_id=tenant_id,
        user_hash=user_hash(tenant_id=tenant_id, external_id=external_id),
        scope=scope,
        counts=counts,
        actor_kind=actor.kind,
        actor_id=actor.id,
        created_at=timezone.now(),
    )


def user_erase(*, user: MemoryUser, actor: Actor) -> DeletionReceipt:
    """Erase everything held about `user` and keep a receipt without personal data."""
    tenant_id, external_id, user_pk = user.tenant_id, user.external_id, user.pk
    with transaction.atomic():
        counts = _delete_everything(MemoryUser.objects.select_for_update().get(pk=user_pk))
        receipt = _keep_receipt(tenant_id=tenant_id, external_id=external_id, scope="user", counts=counts, actor=actor)
        journal.note_user_erased(tenant_id=tenant_id, user_pk=user_pk, external_id=external_id, receipt_id=receipt.pk)
    scrub_after_commit(erased_user=user_pk)
    return receipt


def user_forget_key(*, user: MemoryUser, key: str, actor: Actor, withdraw_turns: bool = False) -> DeletionReceipt:
    """Delete the user's facts with this key (through the write path) and keep a receipt;
    with `withdraw_turns`, the turns they were stated in too."""
    with transaction.atomic():
        deleted = services.facts_forget_by_key(user=user, key=key, actor=actor, withdraw_turns=withdraw_turns)
        receipt = _keep_receipt(
            tenant_id=user.tenant_id,
            external_id=user.external_id,
            scope="key",
            counts={"facts": deleted},
            actor=actor,
        )
    return receipt


def user_keys(*, user: MemoryUser) -> list[tuple[str, int]]:
    """The user's fact keys with how many facts (any status) carry each."""
    rows = Fact.objects.filter(user=user).exclude(key="").values("key").annotate(n=Count("id")).order_by("key")
    return [(row["key"], row["n"]) for row in rows]


# --- Export ---------------------------------------------------------------------------


def _iso(value: date | datetime | None) -> str | None:
    return value.isoformat() if value else None


def _jsonable(value: object) -> Any:
    """Values from the generic serializer, made JSON-safe."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, UUID | Decimal):
        return str(value)
    if isinstance(value, bytes | memoryview):
        return base64.b64encode(bytes(value)).decode()
    return value


def _history_entry(entry: FactHistory) -> dict[str, Any]:
    return {
        "fact_id": str(entry.fact_uuid),
        "action": entry.action,
        "before": entry.before,
        "after": entry.after,
        "actor_kind": entry.actor_kind,
        "actor_id": entry.actor_id,
        "source_turn_id": entry.source_turn_id,
        "reason": entry.reason,
        "created_at": _iso(entry.created_at),
    }


def _fact_entry(fact: Fact, history: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": str(fact.uuid),
        "key": fact.key,
        "text": fact.text,
        "value_json": fact.value_json,
        "category": fact.category,
        "confidence": fact.confidence,
        "status": fact.status,
        "valid_from": _iso(fact.valid_from),
        "valid_to": _iso(fact.valid_to),
        "event_time": _iso(fact.event_time),
        "created_at": _iso(fact.created_at),
        "updated_at": _iso(fact.updated_at),
        "last_mentioned_at": _iso(fact.last_mentioned_at),
        "mention_count": fact.mention_count,
        "source_turn_id": fact.source_turn.turn_id if fact.source_turn else None,
        "source_excerpt": fact.source_excerpt,
        "superseded_by": str(fact.superseded_by.uuid) if fact.superseded_by else None,
        "replaces": str(fact.replaces.uuid) if fact.replaces else None,
        "entities": [tag.entity.name for tag in fact.entity_tags.all()],
        "embedding_model": fact.embedding_model,
        "history": history,
    }


def _turn_entry(turn: Turn) -> dict[str, Any]:
    return {
        "session_id": turn.session_id,
        "turn_id": turn.turn_id,
        "user_input": turn.user_input,
        "assistant_response": turn.assistant_response,
        "occurred_at": _iso(turn.occurred_at),
        "created_at": _iso(turn.created_at),
        "state": turn.state,
        "attempts": turn.attempts,
        "last_error": turn.last_error,
        "extractor": turn.extractor,
        "outcome": turn.outcome,
        "episode_withdrawn": turn.episode_withdrawn,
    }


def _rows_of_other_apps(user: MemoryUser, app_label: str) -> list[dict[str, Any]] | None:
    """Rows an optional app keeps under a foreign key to the user; None if the app is absent."""
    if not apps.is_installed(app_label):
        return None
    rows: list[dict[str, Any]] = []
    for model in apps.get_app_config(app_label).get_models():
        links = [
            f.name for f in model._meta.get_fields() if f.many_to_one and f.concrete and f.related_model is MemoryUser
        ]
        for name in links:
            for item in serializers.serialize("python", model._default_manager.filter(**{name: user})):
                rows.append(_jsonable(item))
    return rows


def user_export(*, user: MemoryUser) -> dict[str, Any]:
    """Everything held about `user`, as one JSON-ready dict."""
    history_by_fact: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for entry in FactHistory.objects.filter(user=user).order_by("created_at", "id"):
        history_by_fact[str(entry.fact_uuid)].append(_history_entry(entry))
    facts = (
        Fact.objects.filter(user=user)
        .select_related("source_turn", "superseded_by", "replaces")
        .prefetch_related("entity_tags__entity")
        .order_by("created_at", "id")
    )
    fact_entries = [_fact_entry(f, history_by_fact.pop(str(f.uuid), [])) for f in facts]
    entities = Entity.objects.filter(user=user).order_by("name")
    edges = Edge.objects.filter(user=user).select_related("src", "dst", "fact").order_by("created_at", "id")
    return {
        "format": EXPORT_FORMAT,
        "exported_at": _iso(timezone.now()),
        "tenant_id": str(user.tenant_id),
        "user_id": user.external_id,
        "created_at": _iso(user.created_at),
        "memory_mode": user.memory_mode,
        "memory_mode_changes": [
            {"before": c.before, "after": c.after, "actor_kind": c.actor_kind, "actor_id": c.actor_id}
            | {"created_at": _iso(c.created_at)}
            for c in MemoryModeChange.objects.filter(user=user).order_by("created_at", "id")
        ],
        "facts": fact_entries,
        # Forgotten facts keep an audit trail without their words; it is still about the user.
        "history_of_deleted_facts": [e for entries in history_by_fact.values() for e in entries],
        "entities": [
            {"name": e.name, "display_name": e.display_name, "aliases": e.aliases, "created_at": _iso(e.created_at)}
            for e in entities
        ],
        "edges": [
            {
                "src": edge.src.name,
                "relation": edge.relation,
                "dst": edge.dst.name,
                "fact_id": str(edge.fact.uuid) if edge.fact else None,
                "valid_from": _iso(edge.valid_from),
                "valid_to": _iso(edge.valid_to),
            }
            for edge in edges
        ],
        "turns": [_turn_entry(t) for t in Turn.objects.filter(user=user).order_by("occurred_at", "id")],
        # The turns recall may return as episodes (docs/design.md §10); their words are under "turns".
        "episodes": list(
            Turn.objects.episodes().filter(user=user).order_by("occurred_at", "id").values_list("turn_id", flat=True)
        ),
        "session_cursors": [
            {"session_id": c.session_id, "updated_at": _iso(c.updated_at)}
            for c in SessionCursor.objects.filter(user=user).order_by("session_id")
        ],
        # Imported lazily through the app registry: the profiles app may not keep anything yet.
        "profile": _rows_of_other_apps(user, "profiles"),
    }
