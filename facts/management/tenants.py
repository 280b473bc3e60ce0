"""The tenant that a management command's argument names (shared by the commands of every app)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.management.base import CommandError

from facts.models import Tenant


def tenant_from_arg(ref: str, *, by_name: bool = False) -> Tenant:
    """The tenant with this id or, with `by_name`, this exact name. Anything else is a
    CommandError saying what to pass: a ref that is not a UUID is simply no tenant's id."""
    try:
        found = Tenant.objects.filter(pk=ref).first()
    except ValidationError:
        found = None
    if found is not None:
        return found
    if by_name:
        named = list(Tenant.objects.filter(name=ref)[:2])
        if len(named) == 1:
            return named[0]
        if named:
            raise CommandError(f"Several tenants are named {ref!r}; pass the tenant id instead.")
        raise CommandError(f"No tenant {ref!r}. Pass a tenant id or name (see the admin or create_tenant output).")
    raise CommandError(f"No tenant {ref!r}. Pass a tenant id (create_tenant prints it; the admin lists them).")
