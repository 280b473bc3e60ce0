"""Turns from the API and the retry command: store a turn, queue its extraction, retry a failed one.

The state machine of a turn, with every transition, is in facts/turn_state.py (the Turn
queryset's methods): each is a compare-and-set on the state column, so duplicate deliveries
of a task change nothing. This service creates turns and sends them again (retry, sweep);
the extraction (facts.extraction.chain) moves a turn past queued.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from core.errors import Conflict, NotFound, Rejected
from core.queues import about_users
from core.timestamps import in_utc
from facts import consent, consent_model
from facts.extraction.chain import extract_turn
from facts.models import ActorKind, Fact, MemoryMode, MemoryUser, Tenant, Turn, TurnState
from facts.services.actors import Actor
from facts.services.lifecycle import facts_forget, turns_withdraw
from facts.services.users import validate_id

log = logging.getLogger(__name__)


def _check_text(value: str, name: str, *, required: bool) -> str:
    value = value or ""
    if required and not value.strip():
        raise Rejected("empty", f"{name} is empty.")
    if len(value) > settings.MEMORY_MAX_TURN_CHARS:
        raise Rejected(
            "turn_too_long", f"{name} is {len(value)} characters; the limit is {settings.MEMORY_MAX_TURN_CHARS}."
        )
    if "\x00" in value:
        raise Rejected("control_characters", f"{name} contains a NUL character.")
    return value


def _send(turn_pk: int, user_pk: int, *, resent: bool = False) -> None:
    # The turn is committed: a broker that is down must not turn that into a 500.
    # It stays queued; the client's repeated post (`_send_again_if_queued`) or the
    # lost-turns marker sends it again. The person rides in a header (old workers ignore it), so
    # the task reads the turn in that person's partition alone (facts.extraction.chain).
    try:
        extract_turn.apply_async((turn_pk, time.time(), resent), **about_users(user_pk))
    except Exception:
        log.exception("Could not queue the extraction of turn %s; the periodic sweep queues it again", turn_pk)


def enqueue(turn: Turn) -> None:
    """Queue the turn's extraction once the surrounding transaction commits."""
    pk, user_pk = turn.pk, turn.user_id
    transaction.on_commit(lambda: _send(pk, user_pk))


def _send_again_if_queued(turn: Turn) -> None:
    """A client posts a turn again when it got no answer, and the host that committed the turn may
    have died before sending its message (killed between the commit and `_send`); until now only
    the lost-turns marker found such a turn, after a wait behind the whole backlog (facts.lost_turns).
    So a repeated post of a turn still queued sends it again. That message claims only a queued
    turn (`extract_turn`'s `resent`): if the first one is waiting in the queue, whichever comes
    first extracts and the other changes nothing."""
    if turn.state == TurnState.QUEUED:
        pk, user_pk = turn.pk, turn.user_id
        transaction.on_commit(lambda: _send(pk, user_pk, resent=True))


# Who forgets the previous turn when the person asks to ("forget what I just said").
CONSENT = Actor(ActorKind.SYSTEM, "consent")


def turn_post(
    *,
    tenant: Tenant,
    user_id: str,
    session_id: str,
    user_input: str,
    turn_id: str | None = None,
    assistant_response: str = "",
    occurred_at: datetime | None = None,
    remember: bool = True,
) -> tuple[Turn, bool]:
    """A client's turn for the tenant's user (created with its first turn): stored and queued;
    (turn, created). A repeated turn_id is stored once, and sent again only while it is still
    queued (`_send_again_if_queued`); a refused turn leaves no user.

    A turn not to be remembered (`remember=False`, the person asking in its words, or their
    memory mode) is withheld: kept without its words, never queued (`withheld_reason`).

    Everything is checked and read before the write transaction, which then only inserts:
    SQLite has one write lock for every writer, and turns posted by many clients at once
    queue for it (docs/measurements.md §9)."""
    validate_id(user_id, "user_id")
    if not isinstance(remember, bool):
        raise Rejected("remember", "remember must be true or false.")
    fields = _turn_fields(session_id, user_input, turn_id, assistant_response, occurred_at)
    # Read in memory only: nothing of the words is kept for a request the detector finds.
    # The rules, or the classifier beside them (MEMORY_CONSENT_CLASSIFIER; facts/consent_model.py).
    asked = consent_model.detect(fields["user_input"])
    # A failed insert means a concurrent post created what was missing: first the user, then
    # perhaps this very turn; the third reading finds both.
    for attempt in range(3):
        user = MemoryUser.objects.filter(tenant=tenant, external_id=user_id).first()
        if user is not None and (existing := _stored(user, fields)) is not None:
            _send_again_if_queued(existing)
            return existing, False
        reason = _withhold_reason(user, remember, asked)
        try:
            with transaction.atomic():
                if user is None:
                    user = MemoryUser.objects.create(tenant=tenant, external_id=user_id)
                if reason is None:
                    return _insert(user, fields), True
                turn = _insert_withheld(user, fields, reason)
                if asked is not None and asked.kind == consent.FORGET_PREVIOUS:
                    _forget_previous(turn)
                return turn, True
        except IntegrityError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def _withhold_reason(user: MemoryUser | None, remember: bool, asked: consent.ConsentRequest | None) -> str | None:
    """Why the turn is not to be remembered, or None: the caller said so, the person's mode
    lets nothing new in, or the person asked in the turn's words (issue 37)."""
    if not remember:
        return "caller"
    mode = user.memory_mode if user is not None else MemoryMode.AUTO
    if mode in (MemoryMode.READ_ONLY, MemoryMode.OFF):
        return mode
    if asked is not None:
        return "asked"
    return None


@dataclass(frozen=True)
class Withheld:
    reason: str
    forgot_turn_id: str | None = None
    forgot_facts: int = 0


def withheld_reason(turn: Turn) -> Withheld | None:
    """What a POST answers about a withheld turn (None for a turn that is remembered)."""
    if turn.state != TurnState.WITHHELD:
        return None
    outcome = turn.outcome or {}
    reason = str(outcome.get("reason") or "").removeprefix("withheld: ")
    return Withheld(reason, outcome.get("forgot_turn_id"), int(outcome.get("forgot_facts") or 0))


def _digest(fields: dict[str, Any]) -> str:
    """Keyed, so a withheld turn's short words cannot be found by hashing guesses."""
    content = json.dumps([fields["session_id"], fields["user_input"], fields["assistant_response"]])
    return hmac.new(settings.SECRET_KEY.encode(), content.encode(), hashlib.sha256).hexdigest()


def _insert_withheld(user: MemoryUser, fields: dict[str, Any], reason: str) -> Turn:
    """The turn id, its session and time, and a digest: what idempotency needs, no words."""
    return Turn.objects.create_withheld(fields=fields, user=user, digest=_digest(fields), reason=reason)


def _forget_previous(turn: Turn) -> None:
    """ "Forget what I just said": the session's previous turn and what it stored go, through
    the forget service (history without words, index rows, journal, scrub or compaction).
    A previous turn still queued or extracting is deleted too; its extraction then finds
    nothing to apply (facts.extraction.apply drops a result whose turn is gone)."""
    previous = Turn.objects.filter(user=turn.user, session_id=turn.session_id, pk__lt=turn.pk).order_by("-pk").first()
    if previous is None or previous.state == TurnState.WITHHELD:
        return
    facts = list(Fact.objects.filter(user=turn.user, source_turn=previous).order_by("pk"))
    reason = f"the person asked to forget what they had just said (turn {turn.turn_id})"
    if facts:
        facts_forget(facts=facts, actor=CONSENT, reason=reason, withdraw_turns=True)
    else:
        turns_withdraw(user=turn.user, turn_pks=[previous.pk])
    outcome = {**turn.outcome, "forgot_turn_id": previous.turn_id, "forgot_facts": len(facts)}
    Turn.objects.filter(pk=turn.pk, user_id=turn.user_id).update(outcome=outcome)
    turn.outcome = outcome


def _turn_fields(
    session_id: str | None, user_input: str, turn_id: str | None, assistant_response: str, occurred_at: datetime | None
) -> dict[str, Any]:
    """The turn's columns, checked (Rejected names the rule); nothing is read or written."""
    # Surrounding spaces are not part of a session or turn id (a user id is taken as given).
    session_id = validate_id((session_id or "").strip(), "session_id")
    turn_id = validate_id(turn_id.strip(), "turn_id") if turn_id is not None else uuid.uuid4().hex
    if occurred_at is not None:
        occurred_at = in_utc(occurred_at)
    return {
        "session_id": session_id,
        "turn_id": turn_id,
        "user_input": _check_text(user_input, "user_input", required=True),
        "assistant_response": _check_text(assistant_response, "assistant_response", required=False),
        "occurred_at": occurred_at or timezone.now(),
    }


def _stored(user: MemoryUser, fields: dict[str, Any]) -> Turn | None:
    """The turn already stored under this turn_id: a client retrying its POST gets it back;
    different content (session, either message) under the same id is a conflict. The time is
    not compared: a retry without occurred_at is stamped anew."""
    existing = Turn.objects.filter(user=user, turn_id=fields["turn_id"]).first()
    if existing is None:
        return None
    if existing.state == TurnState.WITHHELD:
        # Its words were never kept: the digest tells the same content from other content.
        same = hmac.compare_digest(existing.content_digest, _digest(fields))
    else:
        same = all(
            getattr(existing, name) == fields[name] for name in ("session_id", "user_input", "assistant_response")
        )
    if not same:
        raise Conflict(f"Turn {fields['turn_id']!r} already exists with different content.")
    return existing


def _insert(user: MemoryUser, fields: dict[str, Any]) -> Turn:
    turn = Turn.objects.create(tenant_id=user.tenant_id, user=user, **fields)
    enqueue(turn)
    return turn


def turn_get(*, user: MemoryUser, turn_id: str) -> Turn:
    turn = Turn.objects.filter(user=user, turn_id=turn_id).first()
    if turn is None:
        raise NotFound("Turn not found.")
    return turn


def turn_retry(*, turn: Turn) -> Turn:
    """Queue a failed turn again (its messages were kept: the cursor did not move)."""
    with transaction.atomic():
        # started_at: when it was sent again (facts.lost_turns reads a queued turn's last send).
        # Read again in the person's partition (by id alone PostgreSQL would plan all of them).
        mine = Turn.objects.filter(user_id=turn.user_id)
        if not Turn.objects.retry(turn.pk, now=timezone.now(), user_id=turn.user_id):
            turn.refresh_from_db(from_queryset=mine)
            raise Conflict(f"Only a failed turn can be retried; this one is {turn.state}.")
        turn.refresh_from_db(from_queryset=mine)
        enqueue(turn)
    return turn


def turns_requeue(
    *,
    stuck_for: timedelta | None,
    tenant: Tenant | None = None,
    attempts_cap: int | None = None,
    now: datetime | None = None,
) -> int:
    """Queue again what nobody will: failed turns, and (with `stuck_for`) turns queued or
    extracting for that long since their last start (or their creation), which is longer
    than a whole extraction chain may take.

    The one rule behind the periodic sweep and `manage.py retry_turns`. With
    `attempts_cap`, only turns claimed fewer times are touched, so a turn that always
    fails stops after a bounded number of tries and waits for an operator.
    """
    now = now or timezone.now()
    waiting = Q(state=TurnState.FAILED)
    if stuck_for is not None:
        cutoff = now - stuck_for
        waiting |= Q(state__in=[TurnState.QUEUED, TurnState.EXTRACTING]) & (
            Q(started_at__lt=cutoff) | Q(started_at__isnull=True, created_at__lt=cutoff)
        )
    turns = Turn.objects.filter(waiting)
    if tenant is not None:
        turns = turns.filter(tenant=tenant)
    if attempts_cap is not None:
        turns = turns.filter(attempts__lt=attempts_cap)
    count = 0
    for turn in turns.order_by("pk"):
        with transaction.atomic():
            if Turn.objects.requeue(turn, now=now):
                enqueue(turn)
                count += 1
    return count


def turns_sweep(*, now: datetime | None = None) -> int:
    """The periodic sweep (facts.tasks.sweep_turns): failed turns, with the attempts cap
    (MEMORY_TURN_MAX_ATTEMPTS). Turns queued or extracting whose message was lost are found on
    the queue's own clock, by the marker the sweep sends after this (facts.lost_turns): by their
    age alone, turns merely waiting behind a backlog were sent twice (issue 36)."""
    return turns_requeue(stuck_for=None, attempts_cap=settings.MEMORY_TURN_MAX_ATTEMPTS, now=now)
