"""The delivery log's retention: delivered and given-up rows older than MEMORY_WEBHOOK_LOG_DAYS
are pruned by the hourly beat task; queued rows stay, whatever their age. Runs on both
engines (Makefile PG_TESTS)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from memory_service.celery import app
from webhooks.models import DeliveryState, WebhookDelivery, WebhookEndpoint
from webhooks.tasks import prune_log_task

pytestmark = pytest.mark.django_db


def _row(endpoint: WebhookEndpoint, state: str, days_old: float) -> WebhookDelivery:
    return WebhookDelivery.objects.create(
        tenant=endpoint.tenant,
        endpoint=endpoint,
        event="fact.created",
        state=state,
        created_at=timezone.now() - timedelta(days=days_old),
    )


def test_old_delivered_and_failed_rows_are_pruned_and_queued_or_recent_ones_kept(alice, settings):
    settings.MEMORY_WEBHOOK_LOG_DAYS = 30
    endpoint = WebhookEndpoint.objects.create(
        tenant=alice.tenant, url="https://hooks.example.test/", events=["fact.created"], secret="whsec_AA=="
    )
    kept = [
        _row(endpoint, DeliveryState.DELIVERED, 29),
        _row(endpoint, DeliveryState.FAILED, 29),
        _row(endpoint, DeliveryState.QUEUED, 400),  # still to be sent: never pruned
    ]
    for _ in range(3):
        _row(endpoint, DeliveryState.DELIVERED, 31)
    _row(endpoint, DeliveryState.FAILED, 90)

    assert prune_log_task() == {"pruned": 4}

    assert set(WebhookDelivery.objects.values_list("pk", flat=True)) == {r.pk for r in kept}
    assert prune_log_task() == {"pruned": 0}


def test_the_pruning_runs_hourly_from_beat_with_a_30_day_default():
    entry = django_settings.CELERY_BEAT_SCHEDULE["prune-webhook-log"]

    assert entry == {"task": "webhooks.prune_log", "schedule": 3600.0}
    assert "webhooks.prune_log" in app.tasks
    assert django_settings.MEMORY_WEBHOOK_LOG_DAYS == 30
