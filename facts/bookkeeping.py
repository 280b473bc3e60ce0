"""Bookkeeping that must not slow the API down: done after commit, in the worker."""

from __future__ import annotations

import logging
import time
from datetime import datetime

from celery import shared_task
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from facts.models import ApiKey

log = logging.getLogger(__name__)

TOUCH_EVERY_SECONDS = 60
_last_touch: dict[int, float] = {}


def note_key_used(key: ApiKey) -> None:
    """Record that `key` was used, at most once a minute per key and process."""
    now = time.monotonic()
    if now - _last_touch.get(key.pk, -TOUCH_EVERY_SECONDS) < TOUCH_EVERY_SECONDS:
        return
    _last_touch[key.pk] = now
    at = timezone.now().isoformat()
    transaction.on_commit(lambda: _send_touch(key.pk, at))


def _send_touch(key_pk: int, at: str) -> None:
    # Bookkeeping only: a broker that is down must never fail the request that used the key.
    try:
        touch_api_key.delay(key_pk, at)
    except Exception:
        log.exception("Could not queue the last-used time of API key %s", key_pk)


@shared_task(name="facts.touch_api_key", ignore_result=True)
def touch_api_key(key_id: int, at: str) -> int:
    # Compare-and-set: an older or duplicate delivery never moves the time back.
    when = datetime.fromisoformat(at)
    return (
        ApiKey.objects.filter(pk=key_id)
        .filter(Q(last_used_at__isnull=True) | Q(last_used_at__lt=when))
        .update(last_used_at=when)
    )
