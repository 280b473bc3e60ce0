"""What every write does besides changing the row: the audit entry and the announcement."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import transaction
from django.db.models import F

from facts.models import Fact, FactHistory, MemoryUser, Turn
from facts.services.actors import Actor
from facts.signals import episodes_withdrawn, facts_changed, index_dirty
from facts.turn_state import by_key

logger = logging.getLogger(__name__)


def snapshot(fact: Fact, *, with_text: bool = True) -> dict[str, Any]:
    data = {
        "id": str(fact.uuid),
        "key": fact.key,
        "category": fact.category,
        "confidence": fact.confidence,
        "status": fact.status,
        "valid_from": fact.valid_from.isoformat() if fact.valid_from else None,
        "valid_to": fact.valid_to.isoformat() if fact.valid_to else None,
        "superseded_by": str(fact.superseded_by.uuid) if fact.superseded_by else None,
        "replaces": str(fact.replaces.uuid) if fact.replaces else None,
    }
    if with_text:
        data["text"] = fact.text
    return data


def record(
    fact: Fact,
    action: str,
    actor: Actor,
    *,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    reason: str = "",
) -> None:
    """Append the FactHistory entry of one change."""
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
        source_turn_id=_client_turn_id(fact),
        reason=reason,
    )


def _client_turn_id(fact: Fact) -> str:
    """The client's id of the turn `fact` was stated in; read naming the person when not loaded
    (a read of a turn by id alone is planned on every partition, facts/turn_state.py `by_key`)."""
    if fact.source_turn_id is None:
        return ""
    if Fact.source_turn.is_cached(fact):
        return fact.source_turn.turn_id if fact.source_turn else ""
    said = Turn.objects.filter(**by_key(fact.source_turn_id, fact.user_id)).values_list("turn_id", flat=True)
    return said.first() or ""


# user pk -> the fact ids announced in an `announcing_once` block of this thread.
_deferred = threading.local()


@contextmanager
def announcing_once(user: MemoryUser) -> Iterator[None]:
    """Inside a transaction: the facts of this user announced in the block are announced once, at
    its end (one facts_version bump, one outbox write, one facts_changed), not once per fact: an
    applied turn stores its facts one by one (issue 36, statements per turn). Nothing is announced
    when the block raises: the transaction is rolled back."""
    users = _deferred.__dict__.setdefault("users", {})
    if user.pk in users:  # an outer block announces them
        yield
        return
    ids: list[int] = []
    users[user.pk] = ids
    try:
        yield
    finally:
        users.pop(user.pk, None)
    if ids:
        announce_facts_changed(user, ids)


def announce_facts_changed(user: MemoryUser, fact_ids: list[int]) -> None:
    """Bump the user's facts_version and mark the facts for the index now, and send
    facts_changed once the transaction commits (in an `announcing_once` block: at its end)."""
    deferred = _deferred.__dict__.get("users", {}).get(user.pk)
    if deferred is not None:
        deferred.extend(fact_ids)
        return
    MemoryUser.objects.filter(pk=user.pk).update(facts_version=F("facts_version") + 1)
    ids = list(dict.fromkeys(fact_ids))
    index_dirty.send(sender=Fact, user_id=user.pk, fact_ids=ids, turn_ids=[])

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


def withdraw_episodes(user_id: int, turn_ids: list[int]) -> None:
    """These turns' episodes are withdrawn or deleted: derived copies go in this transaction."""
    ids = [int(i) for i in dict.fromkeys(turn_ids)]
    episodes_withdrawn.send(sender=Fact, user_id=user_id, turn_ids=ids)
