"""Endpoints (create, list, delete), the outbox (enqueue, drop or strip), and delivery."""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit
from uuid import UUID

import httpx
from django.conf import settings
from django.db.models import F
from django.utils import timezone

from core.errors import NotFound, Rejected
from facts.models import Tenant
from webhooks import addresses, signing
from webhooks.models import DeliveryState, WebhookDelivery, WebhookEndpoint

logger = logging.getLogger(__name__)

EVENTS = (
    "fact.created",
    "fact.changed",
    "fact.retired",
    "change.pending",
    "change.decided",
    "user.erased",
    "turn.failed",
)


# --- Endpoints -----------------------------------------------------------------------------


def _checked_url(url: str) -> str:
    url = url.strip()
    # No blank or control character anywhere (PostgreSQL refuses NUL; a client would not send them).
    if any(c.isspace() or ord(c) < 32 or 127 <= ord(c) <= 159 for c in url):
        raise Rejected("webhook_url", "The webhook URL must not hold blanks or control characters.")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 -- raises ValueError for a port that is not a number in range
    except ValueError as exc:
        raise Rejected("webhook_url", f"The webhook URL cannot be read ({exc}).") from exc
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Rejected("webhook_url", "The webhook URL must be an http:// or https:// URL with a host.")
    if parts.username or parts.password:
        raise Rejected("webhook_url", "The webhook URL must not carry credentials; verify the signature instead.")
    if len(url) > 2000:
        raise Rejected("webhook_url", "The webhook URL is longer than 2000 characters.")
    try:
        addresses.check_url(url)
    except addresses.AddressRefused as exc:
        raise Rejected("webhook_address", str(exc)) from exc
    return url


def _checked_events(events: list[str]) -> list[str]:
    unknown = sorted(set(events) - set(EVENTS))
    if unknown:
        raise Rejected("webhook_events", f"Unknown event(s) {', '.join(unknown)}; known: {', '.join(EVENTS)}.")
    if not events:
        raise Rejected("webhook_events", "Subscribe the endpoint to at least one event.")
    return [e for e in EVENTS if e in events]


def endpoint_create(*, tenant: Tenant, url: str, events: list[str]) -> WebhookEndpoint:
    """A new endpoint with a new secret (the caller shows it once)."""
    return WebhookEndpoint.objects.create(
        tenant=tenant, url=_checked_url(url), events=_checked_events(events), secret=signing.new_secret()
    )


def endpoint_get(*, tenant: Tenant, endpoint_id: str) -> WebhookEndpoint:
    endpoint = WebhookEndpoint.objects.filter(tenant=tenant, uuid=endpoint_id).first()
    if endpoint is None:
        raise NotFound(f"No webhook endpoint {endpoint_id}.")
    return endpoint


def endpoint_delete(*, tenant: Tenant, endpoint_id: str) -> None:
    """The endpoint and its deliveries, queued or logged."""
    endpoint_get(tenant=tenant, endpoint_id=endpoint_id).delete()


# --- The outbox ----------------------------------------------------------------------------


def active_endpoints(tenant_id: UUID) -> list[WebhookEndpoint]:
    return list(WebhookEndpoint.objects.filter(tenant_id=tenant_id, active=True))


def enqueue(
    *,
    tenant_id: UUID,
    event: str,
    data: dict[str, Any],
    user_pk: int | None = None,
    fact_uuid: UUID | None = None,
    active: list[WebhookEndpoint] | None = None,
) -> list[WebhookDelivery]:
    """One delivery per active endpoint of the tenant subscribed to `event`, written in the
    caller's transaction (so it commits or rolls back with the change it reports). `active`:
    the tenant's active endpoints, when the caller has just read them (active_endpoints)."""
    if active is None:
        active = active_endpoints(tenant_id)
    endpoints = [e for e in active if event in (e.events or [])]
    if not endpoints:
        return []
    now = timezone.now()
    payload = {"type": event, "timestamp": now.isoformat(), "data": data}
    return WebhookDelivery.objects.bulk_create(
        [
            WebhookDelivery(
                tenant_id=tenant_id,
                endpoint=e,
                event=event,
                payload=payload,
                user_pk=user_pk,
                fact_uuid=fact_uuid,
                next_attempt_at=now,
                created_at=now,
            )
            for e in endpoints
        ]
    )


def drop_user(*, user_pk: int, count_only: bool = False) -> int:
    """An erase: what is still queued about the user goes, and the log keeps no word of theirs
    (what was delivered or given up keeps its event, endpoint, attempts and status, with an
    empty payload). Runs in the erasing transaction."""
    rows = WebhookDelivery.objects.filter(user_pk=user_pk)
    if count_only:
        return rows.count()
    queued, _ = rows.filter(state=DeliveryState.QUEUED).delete()
    stripped = rows.update(payload={}, user_pk=None, fact_uuid=None)
    return queued + stripped


def strip_facts(*, fact_uuids: list[str]) -> int:
    """A forget: the forgotten facts' text leaves every delivery about them (queued ones are
    still sent, without it). Runs in the forgetting transaction."""
    stripped = 0
    # Locked by primary key: two forgets of overlapping facts take the rows in one order.
    for delivery in WebhookDelivery.objects.filter(fact_uuid__in=fact_uuids).select_for_update().order_by("pk"):
        fact = (delivery.payload.get("data") or {}).get("fact")
        if isinstance(fact, dict) and "text" in fact:
            fact.pop("text")
            delivery.save(update_fields=["payload"])
            stripped += 1
    return stripped


def prune_log(*, batch: int = 1000) -> int:
    """Delete the delivery log's delivered and given-up rows older than MEMORY_WEBHOOK_LOG_DAYS
    (queued rows stay, whatever their age); a batch per transaction, so a large backlog never
    holds the write lock for long. Returns how many rows went."""
    cutoff = timezone.now() - timedelta(days=settings.MEMORY_WEBHOOK_LOG_DAYS)
    old = WebhookDelivery.objects.filter(
        state__in=(DeliveryState.DELIVERED, DeliveryState.FAILED), created_at__lt=cutoff
    ).order_by("pk")
    pruned = 0
    while ids := list(old.values_list("pk", flat=True)[:batch]):
        pruned += WebhookDelivery.objects.filter(pk__in=ids).delete()[0]
    return pruned


# --- Delivery ------------------------------------------------------------------------------


def backoff(attempts: int) -> timedelta:
    """The wait after the `attempts`-th failed attempt: base x 2^(attempts-1), capped."""
    base = settings.MEMORY_WEBHOOK_BACKOFF_SECONDS
    return timedelta(seconds=min(base * 2 ** (attempts - 1), settings.MEMORY_WEBHOOK_BACKOFF_MAX_SECONDS))


@dataclass
class Sweep:
    delivered: int = 0
    failed: int = 0
    given_up: int = 0


def _claim(delivery: WebhookDelivery) -> bool:
    # Compare-and-set on next_attempt_at: of two sweeps that picked the same row, one sends it.
    # The lease outlasts the request; if the sender dies, the row is due again after it.
    lease = timezone.now() + timedelta(seconds=settings.MEMORY_WEBHOOK_TIMEOUT_SECONDS + 30)
    claimed = WebhookDelivery.objects.filter(
        pk=delivery.pk, state=DeliveryState.QUEUED, next_attempt_at=delivery.next_attempt_at
    ).update(next_attempt_at=lease)
    return claimed == 1


def _post(client: httpx.Client, delivery: WebhookDelivery) -> tuple[int | None, str]:
    try:
        # Resolved and checked now, not only at registration: the name may point elsewhere since.
        target = addresses.pin(delivery.endpoint.url)
    except addresses.AddressRefused as exc:
        return None, f"Not sent: {exc}"[:500]
    body = json.dumps(delivery.payload, separators=(",", ":"), sort_keys=True).encode()
    timestamp = int(timezone.now().timestamp())
    headers = signing.headers(delivery.endpoint.secret, delivery.message_id, timestamp, body)
    # To the checked address; the URL's host stays in Host and in TLS (SNI and the certificate check).
    extensions = {"sni_hostname": target.sni_hostname} if target.sni_hostname else {}
    try:
        response = client.post(
            target.url, content=body, headers={**headers, "Host": target.host_header}, extensions=extensions
        )
    except httpx.HTTPError as exc:
        return None, f"{type(exc).__name__}: {exc}"[:500]
    if 300 <= response.status_code < 400:
        # Never followed: the next hop's address would not have been checked.
        where = response.headers.get("Location") or "nowhere"
        return response.status_code, f"HTTP {response.status_code}: a redirect (to {where}) is not followed"[:500]
    return response.status_code, "" if response.is_success else f"HTTP {response.status_code}"


def _record(delivery: WebhookDelivery, status: int | None, error: str) -> str:
    now = timezone.now()
    attempts = delivery.attempts + 1
    fields: dict[str, Any] = {"attempts": F("attempts") + 1, "last_status": status, "last_error": error}
    if not error:
        fields.update(state=DeliveryState.DELIVERED, delivered_at=now)
    elif attempts >= settings.MEMORY_WEBHOOK_MAX_ATTEMPTS:
        fields.update(state=DeliveryState.FAILED)
    else:
        fields.update(next_attempt_at=now + backoff(attempts))
    # Matched on the state: a row an erase deleted (or stripped) meanwhile stays as the erase left it.
    WebhookDelivery.objects.filter(pk=delivery.pk, state=DeliveryState.QUEUED).update(**fields)
    return str(fields.get("state", "retry"))


def deliver_due(*, limit: int = 200) -> Sweep:
    """Send the deliveries that are due, oldest first; each failure waits its backoff."""
    now = timezone.now()
    due = list(
        WebhookDelivery.objects.filter(state=DeliveryState.QUEUED, next_attempt_at__lte=now)
        .select_related("endpoint")
        .order_by("next_attempt_at", "pk")[:limit]
    )
    sweep = Sweep()
    # Claim no more once half the task's soft time limit is spent: a sweep stopped by the limit
    # would leave its claimed rows waiting out their lease.
    stop_at = time.monotonic() + max(
        1.0, settings.CELERY_TASK_SOFT_TIME_LIMIT / 2 - settings.MEMORY_WEBHOOK_TIMEOUT_SECONDS
    )
    # The endpoint's URL only: no redirects followed, no proxy from the environment, and no
    # connection kept: one made for a host's checked address is never reused for another host.
    with httpx.Client(
        timeout=settings.MEMORY_WEBHOOK_TIMEOUT_SECONDS,
        follow_redirects=False,
        trust_env=False,
        limits=httpx.Limits(max_keepalive_connections=0),
    ) as client:
        for delivery in due:
            if time.monotonic() > stop_at:
                break
            if not _claim(delivery):
                continue
            # Read again once claimed: an erase or forget since the pick has dropped or stripped it.
            current = WebhookDelivery.objects.select_related("endpoint").filter(pk=delivery.pk).first()
            if current is None:
                continue
            status, error = _post(client, current)
            outcome = _record(current, status, error)
            if outcome == DeliveryState.DELIVERED:
                sweep.delivered += 1
            elif outcome == DeliveryState.FAILED:
                sweep.given_up += 1
            else:
                sweep.failed += 1
    return sweep
