"""What every tenant page needs: the request's type, the staff check, the nav badge, and the
user lookup."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from django.http import Http404, HttpRequest
from django_htmx.middleware import HtmxDetails

from core.errors import NotFound
from facts import selectors, services
from facts.models import MemoryUser, Tenant
from facts.permissions import tenant_for_staff


class StaffRequest(HttpRequest):
    """A request of a dashboard page behind login_required, as its view sees it: the user is
    signed in (never AnonymousUser) and django-htmx's middleware has set `htmx` (its docs type it
    so). For type checking only; the object is Django's own request."""

    user: User
    htmx: HtmxDetails


def staff_tenant(request: StaffRequest, tenant_id: UUID) -> Tenant:
    """The tenant if the logged-in user is its staff (or a superuser); 404 otherwise."""
    return tenant_for_staff(request.user, tenant_id)


def queue_count(tenant: Tenant) -> int:
    return selectors.pending_count(tenant=tenant)


def tenant_context(tenant: Tenant, **extra: Any) -> dict[str, Any]:
    return {"tenant": tenant, "queue_count": queue_count(tenant), **extra}


def memory_user_or_404(tenant: Tenant, user_id: str) -> MemoryUser:
    """services.memory_user_get for a page: an unknown user is the dashboard's 404."""
    try:
        return services.memory_user_get(tenant=tenant, user_id=user_id)
    except NotFound as exc:
        raise Http404("No such user.") from exc
