"""Applying a validated extraction reply to the store, in one transaction (db queue).

Every change goes through facts.services, which owns the injection floor,
verbatim de-duplication, same-key arbitration and the confidence policy.
This module adds what is specific to the extractor: resolving the ids it
names among THIS user's live facts, idempotency keys per (turn, key, action),
graph edges, the turn's outcome and the session cursor.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import time
import uuid
from dataclasses import replace
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from core.errors import Conflict, Rejected
from core.timestamps import in_utc
from facts import services
from facts.entities import resolve_entity
from facts.extraction.job import Job, Result, timings
from facts.guard import check_entity_name, check_untrusted_text
from facts.models import Edge, Fact, FactEntity, MemoryMode, SessionCursor, Status, Turn
from facts.services.memory_mode import memory_mode_of
from facts.turn_state import by_key, empty_outcome

log = logging.getLogger(__name__)

_RELATION = re.compile(r"[^a-z0-9]+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD = re.compile(r"\w+")


def normalise_relation(relation: str) -> str:
    return _RELATION.sub("_", (relation or "").strip().lower()).strip("_")[:64]


def _parse_time(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        # An extractor's time past the calendar in UTC is dropped like an unreadable one.
        return in_utc(datetime.fromisoformat(value))
    except ValueError:
        return None


def idempotency_key(turn_pk: int, key: str, action: str, item: dict[str, Any]) -> str:
    """docs/design.md §3: turn id + fact key + a hash of the action, stable across re-deliveries."""
    action_hash = hashlib.sha1(json.dumps([action, item], sort_keys=True).encode()).hexdigest()
    return hashlib.sha256(f"{turn_pk}|{key}|{action_hash}".encode()).hexdigest()


def _excerpt(fact_text: str, user_texts: list[str]) -> str:
    """The user's sentence sharing most words with the fact: the provenance a reviewer reads."""
    wanted = {w for w in _WORD.findall(fact_text.lower()) if len(w) > 2 and w != "user"}
    best, best_score = "", -1
    for text in user_texts:
        for sentence in _SENTENCE.split(text):
            score = len(wanted & set(_WORD.findall(sentence.lower())))
            if score > best_score:
                best, best_score = sentence.strip(), score
    return best[:300]


class Applier:
    """Applies one reply for one turn; collects the outcome the dashboard shows."""

    def __init__(self, turn: Turn, job: Job, extractor: str) -> None:
        self.turn = turn
        self.user = turn.user
        self.refs: dict[str, str] = job.refs
        self.user_texts = [m["user"] for m in job.messages]
        self.actor = services.Actor.extractor(extractor.split(":")[0] or "llm")
        self.outcome = empty_outcome()
        self.touched: list[Fact] = []  # added, refreshed or pending: candidates for edge provenance

    # --- ids -------------------------------------------------------------------------------

    def _resolve(self, ref: str) -> Fact | None:
        """A live fact of this user named by a prompt ref (f3) or a uuid; anything else is ignored."""
        try:
            fact_uuid = uuid.UUID(self.refs.get(ref, ref))
        except ValueError:  # neither a ref of this prompt nor a uuid
            fact_uuid = None
        fact = Fact.objects.live().filter(user=self.user, uuid=fact_uuid).first() if fact_uuid else None
        if fact is None:
            self.outcome["ignored_ids"].append(ref)
            log.warning("Extractor named unknown or foreign fact id %r for turn %s; ignored", ref, self.turn.pk)
        return fact

    # --- actions ---------------------------------------------------------------------------

    def _store(self, item: dict[str, Any], action: str, *, contradicts: Fact | None = None) -> None:
        key = item.get("key") or (contradicts.key if contradicts else "")
        category = item.get("category") or (contradicts.category if contradicts else "other")
        idem_item = {**item, "old": str(contradicts.uuid) if contradicts else None}
        try:
            result = services.fact_store(
                user=self.user,
                text=item["text"],
                actor=self.actor,
                category=category,
                key=key,
                confidence=item.get("confidence"),
                # Unknown to the model: true since it was said, not since the worker got to it
                # (a backlog, a retry or an imported history would date it later).
                valid_from=_parse_time(item.get("valid_from")) or self.turn.occurred_at,
                event_time=_parse_time(item.get("event_time")),
                entities=self._checked_entities(item),
                source_turn=self.turn,
                source_excerpt=_excerpt(item["text"], self.user_texts),
                idempotency_key=idempotency_key(self.turn.pk, services.normalise_key(key), action, idem_item),
                contradicts=contradicts,
            )
        except Rejected as exc:
            self.outcome["rejected"].append({"text_excerpt": item["text"][:120], "rule": exc.rule})
            return
        except Conflict as exc:
            # The person's memory turned read_only or off while this turn was being extracted.
            if exc.extra.get("rule") != "memory_mode":
                raise
            self.outcome["rejected"].append({"text_excerpt": item["text"][:120], "rule": "memory_mode"})
            return
        fact_uuid = str(result.fact.uuid)
        if result.outcome == "created":
            self.outcome["added"].append(fact_uuid)
            self.touched.append(result.fact)
        elif result.outcome == "superseded":
            self.outcome["added"].append(fact_uuid)
            if result.replaced is not None:
                self.outcome["superseded"].append(str(result.replaced.uuid))
            self.touched.append(result.fact)
        elif result.outcome == "pending":
            self.outcome["pending"].append(fact_uuid)
            self.touched.append(result.fact)
        else:  # duplicate (a refresh) or idempotent (already applied)
            self.outcome["duplicates"].append(fact_uuid)
            if result.fact.is_live:
                self.touched.append(result.fact)

    def _expire(self, item: dict[str, Any]) -> None:
        fact = self._resolve(item["id"])
        if fact is None:
            return
        if memory_mode_of(self.user) != MemoryMode.AUTO:
            # The queue holds new values, not retirements: under confirm (or a mode that stores
            # nothing) an expiry the model proposes is not applied; staff can expire it by hand.
            self.outcome["ignored_ids"].append(item["id"])
            return
        valid_to = _parse_time(item.get("valid_to")) or self.turn.occurred_at
        try:
            services.fact_expire(
                fact=fact,
                actor=self.actor,
                valid_to=min(valid_to, timezone.now()),
                reason=item.get("reason") or f"no longer true (turn {self.turn.turn_id})",
            )
        except Conflict:  # retired earlier in this same reply
            self.outcome["ignored_ids"].append(item["id"])
            return
        self.outcome["expired"].append(str(fact.uuid))

    def _checked_entities(self, item: dict[str, Any]) -> list[str] | None:
        """The item's entity names the floor lets through; a refused name is dropped, its fact kept."""
        kept = []
        for name in item.get("entities") or []:
            try:
                kept.append(check_entity_name(name))
            except Rejected as exc:
                self.outcome["rejected"].append({"text_excerpt": str(name)[:120], "rule": exc.rule})
        return kept or None

    def _edge(self, item: dict[str, Any]) -> None:
        relation = normalise_relation(item["relation"])
        try:
            for text in (item["src"], item["dst"], item["relation"]):
                check_untrusted_text(text)
        except Rejected as exc:
            self.outcome["rejected"].append(
                {"text_excerpt": f"{item['src']} {relation} {item['dst']}"[:120], "rule": exc.rule}
            )
            return
        src = resolve_entity(user=self.user, name=item["src"])
        dst = resolve_entity(user=self.user, name=item["dst"])
        if not relation or src is None or dst is None or src == dst:
            return
        provenance = self._provenance(src.pk, dst.pk)
        edge = Edge.objects.filter(user=self.user, src=src, relation=relation, dst=dst, valid_to=None).first()
        if edge is None:
            # An edge resting on a change that waits for staff is held (closed at once);
            # approving the change opens it, rejecting leaves it closed (facts.services.pending).
            now = timezone.now()
            held = provenance is not None and provenance.status == Status.PENDING
            Edge.objects.create(
                tenant_id=self.user.tenant_id,
                user=self.user,
                src=src,
                relation=relation,
                dst=dst,
                fact=provenance,
                valid_from=now,
                valid_to=now if held else None,
            )
        elif edge.fact_id is None and provenance is not None and provenance.is_live:
            edge.fact = provenance
            edge.save(update_fields=["fact"])
        self.outcome["edges"] += 1

    def _provenance(self, src_pk: int, dst_pk: int) -> Fact | None:
        """A fact of this turn tagged with either end, preferring the newest; None if there is none."""
        if not self.touched:
            return None
        ids = [f.pk for f in self.touched]
        tagged = set(
            FactEntity.objects.filter(fact_id__in=ids, entity_id__in=[src_pk, dst_pk]).values_list("fact_id", flat=True)
        )
        return next((f for f in reversed(self.touched) if f.pk in tagged), None)

    def run(self, reply: dict[str, Any]) -> dict[str, Any]:
        for item in reply.get("supersede", []):
            old = self._resolve(item["id"])
            # An unknown id loses only the link: the statement is still kept, as an add
            # (de-duplicated and arbitrated by key like any other); the id is in ignored_ids.
            if old is None:
                self._store(item, "add")
            else:
                self._store(item, "supersede", contradicts=old)
        for item in reply.get("add", []):
            self._store(item, "add")
        for item in reply.get("expire", []):
            self._expire(item)
        for item in reply.get("edges", []):
            self._edge(item)
        return self.outcome


def _summary(outcome: dict[str, Any]) -> str:
    if any(outcome[k] for k in ("added", "superseded", "expired", "pending", "duplicates")) or outcome["edges"]:
        return ""
    if outcome["rejected"]:
        return "nothing stored: every candidate was rejected"
    return "nothing durable found"


def apply(job: Job, result: Result) -> None:
    """Apply the extractor's result for a prepared job, or record its failure."""
    apply_started = time.time()
    if result.error:
        fail(job, result, apply_started)
        return
    # By its person too: on PostgreSQL that reads one partition (facts.turn_state `by_key`); a job
    # message always names its person (0 only in a hand-made job).
    turn = Turn.objects.select_related("user").filter(**by_key(job.turn_pk, job.user_pk or None)).first()
    if turn is None:
        log.info("Turn %s is gone (user erased?); dropping its extraction result", job.turn_pk)
        return
    try:
        # The person's row is held until commit and their memory mode read once (services.holding);
        # the facts the reply changes are announced together (services.announcing_once).
        with transaction.atomic(), services.holding(turn.user), services.announcing_once(turn.user):
            # First, so that of two deliveries of one result (or two chains of one turn) one applies.
            if not Turn.objects.finish(turn.pk, user_id=turn.user_id):
                log.info("Turn %s already finished; duplicate result ignored", turn.pk)
                return
            if result.reply is None:
                raise KeyError("reply")  # a result with neither a reply nor an error: failed, as before
            outcome = Applier(turn, job, result.extractor).run(result.reply)
            outcome["reason"] = _summary(outcome)
            # Earlier failed turns fed with this one are done now: their messages were applied.
            Turn.objects.cover(job.window, by=turn)
            _advance_cursor(turn, job)
            Turn.objects.record_done(
                turn, outcome=outcome, extractor=result.extractor, timings=timings(job, result, apply_started)
            )
    except Exception as exc:
        # Nothing of this result was written (one transaction); keep the turn for the next attempt.
        log.exception("Applying the extraction of turn %s failed", turn.pk)
        result = replace(result, error=f"applying the result failed: {type(exc).__name__}: {exc}")
        fail(job, result, apply_started)


def fail(job: Job, result: Result, apply_started: float) -> None:
    """Record a failed extraction; the cursor stays, so the messages are fed again later."""
    reason = result.error or "unknown failure"
    timed = timings(job, result, apply_started)
    if Turn.objects.fail(
        job.turn_pk, reason=reason, extractor=result.extractor, timings=timed, user_id=job.user_pk or None
    ):
        log.warning("Extraction of turn %s failed: %s", job.turn_pk, reason)


def _advance_cursor(turn: Turn, job: Job) -> None:
    newest = max(job.window or [turn.pk])
    cursors = SessionCursor.objects.filter(user_id=turn.user_id, session_id=turn.session_id)
    behind = Q(last_applied_turn__isnull=True) | Q(last_applied_turn__lt=newest)
    # One statement for a session seen before (it moves only forward); a new session's is created.
    if not cursors.filter(behind).update(last_applied_turn_id=newest, updated_at=timezone.now()):
        SessionCursor.objects.get_or_create(
            user_id=turn.user_id, session_id=turn.session_id, defaults={"last_applied_turn_id": newest}
        )
