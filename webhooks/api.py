"""Webhook endpoint routes (docs/api.md, "Webhooks"): admin scope only."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from ninja import Field, Router, Schema, Status

from memory_service.auth import require_scope
from memory_service.schemas import errors
from webhooks import services
from webhooks.models import WebhookEndpoint

router = Router(tags=["webhooks"])


class EndpointIn(Schema):
    url: str = Field(..., min_length=1, max_length=2000, description="http:// or https:// URL that receives the POSTs")
    events: list[str] = Field(..., min_length=1, description=f"Any of: {', '.join(services.EVENTS)}")


class EndpointOut(Schema):
    id: UUID
    url: str
    events: list[str]
    active: bool
    created_at: datetime


class EndpointCreated(EndpointOut):
    secret: str = Field(..., description="whsec_<base64>: the signing key, shown only in this answer")


def _out(endpoint: WebhookEndpoint) -> dict:
    return {
        "id": endpoint.uuid,
        "url": endpoint.url,
        "events": endpoint.events,
        "active": endpoint.active,
        "created_at": endpoint.created_at,
    }


@router.post("/webhooks", response={201: EndpointCreated, **errors(400, 401, 403, 422)})
def create_webhook(request, body: EndpointIn):
    """Add an endpoint; the answer carries its signing secret, which is not shown again."""
    tenant = require_scope(request, "admin")
    endpoint = services.endpoint_create(tenant=tenant, url=body.url, events=body.events)
    return Status(201, {**_out(endpoint), "secret": endpoint.secret})


@router.get("/webhooks", response={200: list[EndpointOut], **errors(401, 403)})
def list_webhooks(request):
    """The tenant's endpoints, oldest first (without their secrets)."""
    tenant = require_scope(request, "admin")
    return [_out(e) for e in WebhookEndpoint.objects.filter(tenant=tenant).order_by("created_at", "pk")]


@router.delete("/webhooks/{endpoint_id}", response={204: None, **errors(401, 403, 404, 422)})
def delete_webhook(request, endpoint_id: UUID):
    """Remove an endpoint with its queued deliveries and its log."""
    tenant = require_scope(request, "admin")
    services.endpoint_delete(tenant=tenant, endpoint_id=str(endpoint_id))
    return Status(204, None)
