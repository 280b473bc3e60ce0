"""A turn and its life, in one room (docs/design.md §4, "A turn's states").

    queued -> extracting -> done | skipped | failed;  failed -> queued (retry, sweep)
    queued | extracting -> queued (the lost-turns marker, facts.lost_turns)
    withheld: born so, never queued (not to be remembered; kept without its words)

Every transition below is a compare-and-set on `state`: the update names the states it may
leave, so a duplicate delivery of a task, two chains of one turn, or a turn deleted meanwhile
(its person erased, the turn withdrawn) changes nothing, and the method says so (False).
A transition also sends what its state means to the rest of the house (facts.signals): a
turn done is an episode for the index, a failed one an event for webhooks, a finished one
counts for the profile projection.

Defined here and imported by facts.models, so `from facts.models import Turn` keeps working.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypedDict

from django.db import models, transaction
from django.db.models import F, Q
from django.utils import timezone

from facts.signals import index_dirty, turn_failed, turn_processed


class TurnState(models.TextChoices):
    QUEUED = "queued"
    SKIPPED = "skipped"
    EXTRACTING = "extracting"
    DONE = "done"
    FAILED = "failed"
    # Not to be remembered (the caller, the person, or their memory mode said so): kept
    # without its words, only so that a retry of the same turn_id is recognised.
    WITHHELD = "withheld"


# A claim may take a turn already extracting: the task was delivered again after its worker
# was killed (acks_late), and that delivery must carry the turn on.
CLAIMABLE = (TurnState.QUEUED, TurnState.FAILED, TurnState.EXTRACTING)
# A result is applied to a turn extracting, or failed meanwhile (a slow first chain's result
# arriving after the turn was failed by another): of two results one finishes it.
FINISHABLE = (TurnState.EXTRACTING, TurnState.FAILED)


class Timings(TypedDict):
    """A turn's timing columns, in ms (facts.extraction.job.timings)."""

    queue_wait_ms: float | None
    processing_ms: float
    llm_ms: float


def empty_outcome(reason: str = "") -> dict[str, Any]:
    """What a turn changed, nothing yet: the shape of `Turn.outcome`."""
    return {
        "added": [],
        "superseded": [],
        "expired": [],
        "pending": [],
        "duplicates": [],
        "rejected": [],
        "ignored_ids": [],
        "edges": 0,
        "reason": reason,
    }


def by_key(pk: int, user_id: int | None) -> dict[str, int]:
    """The filter of one turn: its key, and its person's id when the caller knows it. On PostgreSQL
    the turns are partitioned by person, and a read or update by id alone is planned and probed on
    every partition (64 by default: about 4x the server's CPU per turn, docs/measurements.md §20)."""
    return {"pk": pk} if user_id is None else {"pk": pk, "user_id": user_id}


def _announce(turn: Turn, state: str) -> None:
    """Inside the transaction: a turn done is an episode for the index now; after commit,
    turn_processed (the profile projection counts these)."""
    tenant_id, user_id, pk = turn.tenant_id, turn.user_id, turn.pk
    if state == TurnState.DONE:
        index_dirty.send(sender=Turn, user_id=user_id, fact_ids=[], turn_ids=[pk])
    transaction.on_commit(
        lambda: turn_processed.send(sender=Turn, tenant_id=tenant_id, user_id=user_id, turn_id=pk, state=state)
    )


class TurnQuerySet(models.QuerySet["Turn"]):
    def episodes(self) -> TurnQuerySet:
        """The turns recall may return as episodes (docs/design.md §10): extraction finished
        `done` (not skipped by the salience gate, not failed), episode not withdrawn."""
        return self.filter(state=TurnState.DONE, episode_withdrawn=False)

    def waiting(self) -> TurnQuerySet:
        """The turns still waiting for extraction: queued or being extracted (the backlog)."""
        return self.filter(state__in=[TurnState.QUEUED, TurnState.EXTRACTING])

    # --- born -------------------------------------------------------------------------------

    def create_withheld(self, *, fields: dict[str, Any], user: Any, digest: str, reason: str) -> Turn:
        """A turn not to be remembered: its id, session and time, and a digest of its content
        (what idempotency needs), no words; never queued."""
        return self.create(
            tenant_id=user.tenant_id,
            user=user,
            session_id=fields["session_id"],
            turn_id=fields["turn_id"],
            user_input="",
            assistant_response="",
            occurred_at=fields["occurred_at"],
            state=TurnState.WITHHELD,
            content_digest=digest,
            finished_at=timezone.now(),
            outcome=empty_outcome(f"withheld: {reason}"),
        )

    # --- the extraction chain (facts.extraction) --------------------------------------------

    def claim(self, pk: int, *, now: datetime, queued_only: bool = False, user_id: int | None = None) -> bool:
        """queued | failed | extracting -> extracting, one attempt more (CLAIMABLE); with
        `queued_only`, queued -> extracting alone (a message sent again for a client's repeated
        post: facts.services.turns `turn_post`). `user_id`, when known, is the turn's person's."""
        states = (TurnState.QUEUED,) if queued_only else CLAIMABLE
        claimed = self.filter(**by_key(pk, user_id), state__in=states).update(
            state=TurnState.EXTRACTING, attempts=F("attempts") + 1, started_at=now
        )
        return bool(claimed)

    def skip(self, turn: Turn, *, reason: str, queue_wait_ms: float | None, processing_ms: float) -> bool:
        """extracting -> skipped, nothing sent to the extractor (the salience gate, a memory mode
        that stores nothing); counted as processed after commit."""
        skipped = self.filter(**by_key(turn.pk, turn.user_id), state=TurnState.EXTRACTING).update(
            state=TurnState.SKIPPED,
            finished_at=timezone.now(),
            last_error="",
            extractor="",
            queue_wait_ms=queue_wait_ms,
            processing_ms=processing_ms,
            llm_ms=0.0,
            outcome=empty_outcome(reason),
        )
        if skipped:
            _announce(turn, TurnState.SKIPPED)
        return bool(skipped)

    def fail(
        self, pk: int, *, reason: str, extractor: str = "", timings: Timings | None = None, user_id: int | None = None
    ) -> bool:
        """extracting -> failed, with the reason; turn_failed in the same transaction (webhooks'
        outbox). The session cursor stays, so its messages are fed again later."""
        measured: dict[str, Any] = {}
        if timings is not None:
            measured.update(timings)
        with transaction.atomic():
            failed = self.filter(**by_key(pk, user_id), state=TurnState.EXTRACTING).update(
                state=TurnState.FAILED,
                last_error=reason[:2000],
                finished_at=timezone.now(),
                extractor=extractor,
                outcome=empty_outcome(f"failed: {reason[:500]}"),
                **measured,
            )
            if failed:
                turn_failed.send(sender=Turn, turn_pk=pk)
        return bool(failed)

    def finish(self, pk: int, *, user_id: int | None = None) -> bool:
        """extracting | failed -> done (FINISHABLE), taken first in the applying transaction: of
        two deliveries of one result (or two chains of one turn), one applies; the other, and a
        result for a turn deleted meanwhile, get False. `record_done` writes what it changed."""
        done = self.filter(**by_key(pk, user_id), state__in=FINISHABLE).update(state=TurnState.DONE, last_error="")
        return bool(done)

    def record_done(self, turn: Turn, *, outcome: dict[str, Any], extractor: str, timings: Timings) -> None:
        """What applying `turn` (finished above, same transaction) changed; it is an episode now."""
        self.filter(**by_key(turn.pk, turn.user_id), state=TurnState.DONE).update(
            finished_at=timezone.now(), extractor=extractor[:32], outcome=outcome, **timings
        )
        _announce(turn, TurnState.DONE)

    def cover(self, pks: list[int], *, by: Turn) -> int:
        """failed -> done: earlier failed turns of the session fed to the extractor with `by`,
        whose result was applied (their messages were too). How many."""
        others = [pk for pk in pks if pk != by.pk]
        if not others:  # the usual window, the turn alone: not even a query to build
            return 0
        covered = 0
        for other in self.filter(pk__in=others, user_id=by.user_id, state=TurnState.FAILED):
            if self.filter(**by_key(other.pk, by.user_id), state=TurnState.FAILED).update(
                state=TurnState.DONE,
                finished_at=timezone.now(),
                last_error="",
                outcome=empty_outcome(f"applied with turn {by.turn_id}"),
            ):
                _announce(other, TurnState.DONE)
                covered += 1
        return covered

    # --- sent again (facts.services.turns, facts.lost_turns) ---------------------------------

    def retry(self, pk: int, *, now: datetime, user_id: int | None = None) -> bool:
        """failed -> queued, asked for by a client or staff; started_at: when it was sent again
        (facts.lost_turns reads a queued turn's last send). The caller sends it."""
        failed = self.filter(**by_key(pk, user_id), state=TurnState.FAILED)
        return bool(failed.update(state=TurnState.QUEUED, started_at=now))

    def requeue(self, turn: Turn, *, now: datetime, same_send: bool = False) -> bool:
        """Still in the state it was read in (and, with `same_send`, still from the send it was
        read with: not claimed and sent again meanwhile) -> queued; started_at restarts the
        clock so the next sweep waits for this send. The caller sends it."""
        unchanged = Q(**by_key(turn.pk, turn.user_id), state=turn.state)
        if same_send:
            unchanged &= Q(started_at=turn.started_at)
        return bool(self.filter(unchanged).update(state=TurnState.QUEUED, started_at=now))

    # --- forgotten (facts.services.lifecycle) ------------------------------------------------

    def withdraw_episode(self, pk: int, user_id: int | None = None) -> int:
        """Its words leave episode recall (a fact stated in it was forgotten); its state stays."""
        return self.filter(**by_key(pk, user_id)).update(episode_withdrawn=True)


class Turn(models.Model):
    id = models.BigAutoField(primary_key=True)
    tenant = models.ForeignKey("facts.Tenant", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey("facts.MemoryUser", on_delete=models.CASCADE, related_name="turns")
    session_id = models.CharField(max_length=128)
    turn_id = models.CharField(max_length=128)  # the client's id, or one we generate
    user_input = models.TextField()
    assistant_response = models.TextField(blank=True, default="")
    occurred_at = models.DateTimeField(default=timezone.now)
    created_at = models.DateTimeField(default=timezone.now)
    state = models.CharField(max_length=12, choices=TurnState.choices, default=TurnState.QUEUED)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    queue_wait_ms = models.FloatField(null=True, blank=True)
    processing_ms = models.FloatField(null=True, blank=True)
    llm_ms = models.FloatField(null=True, blank=True)
    extractor = models.CharField(max_length=32, blank=True, default="")
    # What applying this turn changed: {"added": [...], "superseded": [...], ...}
    outcome = models.JSONField(default=dict, blank=True)
    # Set when a fact from this turn is forgotten: its words leave episode recall too.
    episode_withdrawn = models.BooleanField(default=False)
    # A withheld turn's only trace of its content: an HMAC of its session and messages, so a
    # retry under the same turn_id is told from other content (facts.services.turns).
    content_digest = models.CharField(max_length=64, blank=True, default="")

    objects = TurnQuerySet.as_manager()

    class Meta:
        app_label = "facts"
        constraints = [models.UniqueConstraint(fields=["user", "turn_id"], name="turn_unique_per_user")]
        indexes = [
            models.Index(fields=["user", "session_id", "created_at"], name="turn_session"),
            models.Index(fields=["tenant", "state"], name="turn_tenant_state"),
            # The newest extracted turn says which extractor runs (facts.extraction.status), read
            # by every posted turn: without it that read walked back over every turn still queued.
            models.Index(fields=["id"], name="turn_extracted", condition=~Q(extractor="")),
        ]
