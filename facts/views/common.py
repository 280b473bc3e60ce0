"""What every tenant page needs: the staff check, the nav badge, and the user lookup."""

from __future__ import annotations

from django.http import Http404

from facts.models import Fact, MemoryUser, Status, Tenant
from facts.permissions import tenant_for_staff


def staff_tenant(request, tenant_id) -> Tenant:
    """The tenant if the logged-in user is its staff (or a superuser); 404 otherwise."""
    return tenant_for_staff(request.user, tenant_id)


def queue_count(tenant: Tenant) -> int:
    return Fact.objects.filter(tenant=tenant, status=Status.PENDING).count()


def tenant_context(tenant: Tenant, **extra) -> dict:
    return {"tenant": tenant, "queue_count": queue_count(tenant), **extra}


def memory_user_or_404(tenant: Tenant, user_id: str) -> MemoryUser:
    user = MemoryUser.objects.filter(tenant=tenant, external_id=user_id).first()
    if user is None:
        raise Http404("No such user.")
    return user
