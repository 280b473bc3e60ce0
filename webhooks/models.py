"""A tenant's webhook endpoints and the outbox of deliveries to them (docs/api.md, "Webhooks").

A delivery row is written in the transaction of the change it reports, so a change that
commits always has its deliveries and one that rolls back has none; the sweep
(webhooks/tasks.py) sends each at least once. A row names the memory user (their primary
key, a plain integer so the log outlives them) and the fact it is about, so an erase or a
forget can find what is still queued about them and drop or strip it in its own transaction.
"""

from __future__ import annotations

import uuid

from django.db import models
from django.utils import timezone

from facts.models import Tenant


class WebhookEndpoint(models.Model):
    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    url = models.URLField(max_length=2000)
    # Kept as given (whsec_<base64>): signing needs the key itself. Shown once, at creation.
    secret = models.CharField(max_length=100)
    events = models.JSONField(default=list)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["tenant", "active"])]


class DeliveryState(models.TextChoices):
    QUEUED = "queued", "Queued"
    DELIVERED = "delivered", "Delivered"
    # Out of attempts (MEMORY_WEBHOOK_MAX_ATTEMPTS): kept in the log, not sent again.
    FAILED = "failed", "Failed"


class WebhookDelivery(models.Model):
    # The idempotency id (webhook-id header): the same for every attempt of this delivery.
    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=40)
    payload = models.JSONField(default=dict)
    user_pk = models.BigIntegerField(null=True, blank=True, db_index=True)
    fact_uuid = models.UUIDField(null=True, blank=True, db_index=True)
    state = models.CharField(max_length=12, choices=DeliveryState.choices, default=DeliveryState.QUEUED)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    last_status = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["state", "next_attempt_at"]),
            models.Index(fields=["tenant", "-created_at"]),
        ]

    @property
    def message_id(self) -> str:
        return f"msg_{self.uuid.hex}"
