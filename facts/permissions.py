"""Which tenants a dashboard user may see: their own, or all for superusers."""

from __future__ import annotations

from uuid import UUID

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet
from django.http import Http404

from facts.models import Tenant


def tenants_for(user: User | AnonymousUser) -> QuerySet[Tenant]:
    if not user.is_authenticated:
        return Tenant.objects.none()
    if user.is_superuser:
        return Tenant.objects.all()
    return Tenant.objects.filter(staff=user)


def tenant_for_staff(user: User | AnonymousUser, tenant_id: UUID | str) -> Tenant:
    """The tenant if `user` is its staff (or a superuser); 404 otherwise, never 403."""
    tenant = tenants_for(user).filter(pk=tenant_id).first()
    if tenant is None:
        raise Http404("No such tenant.")
    return tenant
