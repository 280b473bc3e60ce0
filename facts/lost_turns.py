"""Turns whose message was lost, found on the `db` queue's own clock (issue 36).

A turn is sent to the `db` queue when it is posted (and when the sweep or a retry sends it
again). Its message can be lost: the broker was down when it was sent, Redis restarted without
it, or a `db` worker was killed holding it (with acks_late it comes back only after the broker's
visibility timeout, 15 minutes by default). The sweep used to send again every turn queued or
extracting for MEMORY_TURN_STUCK_SECONDS since it was posted: behind a backlog longer than that,
turns that were merely waiting were sent twice, and the duplicates (each a second model call)
grew the backlog they waited in (the many-hosts drill's dbworker-kill did not drain).

Instead the periodic sweep puts a marker in the queue: `sweep_lost_turns`, carrying the time it
was sent. The queue is first in, first out, so when the marker is delivered every message sent
before it has been delivered too; it then waits CELERY_TASK_TIME_LIMIT more (a countdown), time
for a message a worker took ahead of it to start. A turn still queued whose last send is older
than the marker was therefore lost, however long the queue was, and is sent again; one merely
waiting behind a backlog is claimed before the marker arrives. A claimed turn (extracting) is
sent again when its claim is MEMORY_TURN_STUCK_SECONDS older than the marker: the bound counts
from the claim, on the queue's clock, so a result waiting behind a backlog is not taken for lost.

A turn is never applied twice: sending it again is a compare-and-set on its state, claiming and
applying are too (facts.extraction), and a second delivery of a finished turn changes nothing.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from facts.models import Turn, TurnState
from facts.services.turns import enqueue

log = logging.getLogger(__name__)

# A turn is inserted before its transaction commits, and its message sent just after: one created
# this shortly before the marker may have been sent after it (nothing is lost, only later).
SEND_SLACK = timedelta(seconds=10)


@shared_task(name="facts.sweep_lost_turns", ignore_result=True, acks_late=True)
def sweep_lost_turns(sent_at: str) -> int:
    """The marker (module docstring): every message sent before `sent_at` has been delivered."""
    return turns_lost_requeue(sent_before=datetime.fromisoformat(sent_at) - SEND_SLACK)


def send_marker(now: datetime | None = None) -> None:
    """Put the marker at the end of the `db` queue (the periodic sweep does, facts.tasks)."""
    now = now or timezone.now()
    try:
        sweep_lost_turns.apply_async((now.isoformat(),), countdown=settings.CELERY_TASK_TIME_LIMIT)
    except Exception:
        # The broker is down: the next sweep sends one.
        log.exception("Could not queue the lost-turns marker; the next sweep sends one")


def turns_lost_requeue(*, sent_before: datetime, now: datetime | None = None) -> int:
    """Send again the turns a marker sent at `sent_before` finds lost (module docstring): queued
    and last sent before it, or claimed MEMORY_TURN_STUCK_SECONDS before it; each fewer than
    MEMORY_TURN_MAX_ATTEMPTS times. How many were sent."""
    now = now or timezone.now()
    stuck_for = timedelta(seconds=settings.MEMORY_TURN_STUCK_SECONDS)
    # A queued turn's started_at is when it was last sent again (the sweep, a retry), else none.
    lost = Q(state=TurnState.QUEUED) & (
        Q(started_at__lt=sent_before) | Q(started_at__isnull=True, created_at__lt=sent_before)
    )
    stalled = Q(state=TurnState.EXTRACTING, started_at__lt=sent_before - stuck_for)
    turns = Turn.objects.filter(lost | stalled, attempts__lt=settings.MEMORY_TURN_MAX_ATTEMPTS)
    count = 0
    for turn in turns.order_by("pk"):
        with transaction.atomic():
            # Compare-and-set: a turn claimed, finished or sent again meanwhile is left alone.
            if Turn.objects.requeue(turn, now=now, same_send=True):
                enqueue(turn)
                count += 1
    if count:
        log.warning("Sent %d lost turns again (their messages were not delivered, or their chains stopped)", count)
    return count
