"""What every tenant page needs: the staff check, the nav badge, and the user lookup."""

from __future__ import annotations

from django.http import Http404

from core.errors import NotFound
from facts import selectors, services
from facts.models import MemoryUser, Tenant
from facts.permissions import tenant_for_staff


def staff_tenant(request, tenant_id) -> Tenant:
    """The tenant if the logged-in user is its staff (or a superuser); 404 otherwise."""
    return tenant_for_staff(request.user, tenant_id)


def queue_count(tenant: Tenant) -> int:
    return selectors.pending_count(tenant=tenant)


def tenant_context(tenant: Tenant, **extra) -> dict:
    return {"tenant": tenant, "queue_count": queue_count(tenant), **extra}


def memory_user_or_404(tenant: Tenant, user_id: str) -> MemoryUser:
    """services.memory_user_get for a page: an unknown user is the dashboard's 404."""
    try:
        return services.memory_user_get(tenant=tenant, user_id=user_id)
    except NotFound as exc:
        raise Http404("No such user.") from exc
