"""Background profile projection (runs on the `db` queue: it reads and writes SQLite)."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError

from profiles import services

log = logging.getLogger(__name__)


@shared_task(bind=True, max_retries=5, acks_late=True)
def project_profile(self, user_pk: int, trigger: str = "manual") -> int | None:
    """Refresh one user's profile; returns the version now current (None if the user is gone)."""
    try:
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
