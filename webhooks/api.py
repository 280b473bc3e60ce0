"""Webhook endpoint routes (docs/api.md, "Webhooks"): admin scope only."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, get_args
from uuid import UUID

from ninja import Field, Router, Schema, Status

from core.schemas import errors
from facts.auth import KeyRequest, require_scope
from webhooks import services
from webhooks.models import WebhookEndpoint

router = Router(tags=["webhooks"])


# What services.endpoint_create accepts, stated for the schema (the service stays the one
# place that enforces it): http(s), a host name or IPv4 address, an optional port, no
# credentials, no blank or control character.
_PORT = r"(:([0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?"
URL_PATTERN = r"^https?://[A-Za-z0-9._~-]+" + _PORT + r"([/?#][^\s\x00-\x1f\x7f-\x9f]*)?$"
Event = Literal[
    "fact.created", "fact.changed", "fact.retired", "change.pending", "change.decided", "user.erased", "turn.failed"
]


class EndpointIn(Schema):
    url: str = Field(
        ...,
        min_length=1,
        max_length=2000,
        pattern=URL_PATTERN,
        description=(
            "http:// or https:// URL that receives the POSTs; its host must be a public address or a name "
            "resolving only to public ones (422 webhook_address otherwise; docs/api.md 'Where webhooks may go')"
        ),
    )
    events: list[Event] = Field(..., min_length=1)


class EndpointOut(Schema):
    id: UUID
    url: str
    events: list[str]
    active: bool
    created_at: datetime


class EndpointCreated(EndpointOut):
    secret: str = Field(..., description="whsec_<base64>: the signing key, shown only in this answer")


def _out(endpoint: WebhookEndpoint) -> dict[str, Any]:
    return {
        "id": endpoint.uuid,
        "url": endpoint.url,
        "events": endpoint.events,
        "active": endpoint.active,
        "created_at": endpoint.created_at,
    }


@router.post("/webhooks", response={201: EndpointCreated, **errors(400, 401, 403, 422)})
def create_webhook(request: KeyRequest, body: EndpointIn) -> Status[dict[str, Any]]:
    """Add an endpoint; the answer carries its signing secret, which is not shown again."""
    tenant = require_scope(request, "admin")
    endpoint = services.endpoint_create(tenant=tenant, url=body.url, events=list(body.events))
    return Status(201, {**_out(endpoint), "secret": endpoint.secret})


@router.get("/webhooks", response={200: list[EndpointOut], **errors(401, 403)})
def list_webhooks(request: KeyRequest) -> list[dict[str, Any]]:
    """The tenant's endpoints, oldest first (without their secrets)."""
    tenant = require_scope(request, "admin")
    return [_out(e) for e in WebhookEndpoint.objects.filter(tenant=tenant).order_by("created_at", "pk")]


@router.delete("/webhooks/{endpoint_id}", response={204: None, **errors(401, 403, 404, 422)})
def delete_webhook(request: KeyRequest, endpoint_id: UUID) -> Status[None]:
    """Remove an endpoint with its queued deliveries and its log."""
    tenant = require_scope(request, "admin")
    services.endpoint_delete(tenant=tenant, endpoint_id=str(endpoint_id))
    return Status(204, None)


assert get_args(Event) == services.EVENTS  # one list of events
