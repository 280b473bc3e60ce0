"""Background profile projection (runs on the `db` queue: it reads and writes the database)."""

from __future__ import annotations

import logging

from celery import Task, shared_task
from django.conf import settings
from django.db import OperationalError, transaction

from core.queues import eager
from facts.models import MemoryUser
from profiles import services
from profiles.models import Profile, ProfileTrigger

log = logging.getLogger(__name__)


@shared_task(bind=True, max_retries=5, acks_late=True)
def project_profile(self: Task[..., int | None], user_pk: int, trigger: str = "manual") -> int | None:
    """Refresh one user's profile; returns the version now current (None if the user is gone)."""
    if trigger == ProfileTrigger.TURNS and not services.profile_should_project(user_pk):
        # An earlier projection, run since this one was queued, has counted these turns.
        return Profile.objects.filter(user_id=user_pk).order_by("-version").values_list("version", flat=True).first()
    try:
        with transaction.atomic():
            # Two `db` worker processes projecting one person at once both read "version n" and
            # both inserted n + 1 (one failed on the unique version). The person's row is held
            # until commit (SQLite's BEGIN IMMEDIATE already serialises), so the second waits
            # and finds the first's version current.
            list(MemoryUser.objects.select_for_update().filter(pk=user_pk).values_list("pk", flat=True))
            profile = services.profile_refresh(user_pk=user_pk, trigger=trigger)
    except OperationalError as exc:  # "database is locked" past busy_timeout: try again later
        raise self.retry(exc=exc, countdown=5 * (self.request.retries + 1)) from exc
    return profile.version if profile else None


def enqueue_projection(user_pk: int, trigger: str) -> bool:
    """Queue a projection without ever failing the caller (a turn or a session end).

    If the broker is down the next trigger projects again: profiles are derived
    data and every refresh rebuilds them from the live facts.
    """
    try:
        project_profile.delay(user_pk, trigger)
    except Exception:
        log.exception("could not enqueue the profile projection of memory user %s", user_pk)
        return False
    return True


# user pk -> how many more extracted turns of that user this process applies before it counts
# their turns again (the Nth counts).
_due: dict[int, int] = {}
DUE_MAX_USERS = 10_000


def project_after_turns(user_pk: int) -> bool:
    """Queue the user's projection when MEMORY_PROFILE_EVERY_TURNS turns were extracted since the
    last one, once per that many turns. The count the rule reads moves only when the projection
    runs, so behind a backlog of the `db` queue every further turn of the user queued another one:
    a projection per turn instead of per five, each reading all the user's live facts, which grew
    the backlog that delayed them (docs/measurements.md §20). And counting the user's turns for
    every applied turn was a read per turn: this process counts again only after as many turns of
    the user as the rule still needs (other processes' turns only bring the count there sooner, so
    a projection may come later, never earlier, than the rule; a restart counts at once). A lost
    message delays the projection by that many turns; a queued one whose turns an earlier
    projection counted returns at once (project_profile)."""
    every = max(settings.MEMORY_PROFILE_EVERY_TURNS, 1)
    left = _due.get(user_pk)
    if left is not None and left > 1 and not eager():
        _due[user_pk] = left - 1
        return False
    needed = services.turns_before_projection(user_pk, services.done_turn_count(user_pk))
    if len(_due) >= DUE_MAX_USERS:
        _due.clear()
    if needed > 0:
        _due[user_pk] = needed
        return False
    _due[user_pk] = every
    return enqueue_projection(user_pk, ProfileTrigger.TURNS)
