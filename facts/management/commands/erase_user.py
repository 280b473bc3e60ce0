from __future__ import annotations

import json

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from facts import privacy
from facts.models import ActorKind, MemoryUser, Tenant
from facts.services import Actor


class Command(BaseCommand):
    help = (
        "Erase one memory user of a tenant: facts, history, entities, edges, turns, profile and index rows, "
        "in one transaction, then a WAL checkpoint. Prints the deletion receipt (no personal data). "
        "--dry-run prints what would be erased and changes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tenant", required=True, help="tenant id (uuid) or exact tenant name")
        parser.add_argument("user_id", help="the tenant's own id of the user")
        parser.add_argument("--dry-run", action="store_true", help="only count what would be erased")

    def handle(self, *args, tenant: str, user_id: str, dry_run: bool, **options):
        found = self._tenant(tenant)
        user = MemoryUser.objects.filter(tenant=found, external_id=user_id).first()
        if user is None:
            raise CommandError(f"Tenant {found.name!r} has no user {user_id!r}. Check the id (it is case-sensitive).")
        if dry_run:
            counts = privacy.erase_preview(user=user)
            self.stdout.write(json.dumps({"dry_run": True, "counts": counts}, sort_keys=True))
            return
        receipt = privacy.user_erase(user=user, actor=Actor(ActorKind.SYSTEM, "erase_user command"))
        self.stdout.write(
            json.dumps(
                {
                    "receipt_id": receipt.id,
                    "tenant_id": str(receipt.tenant_id),
                    "user_hash": receipt.user_hash,
                    "counts": receipt.counts,
                    "created_at": receipt.created_at.isoformat(),
                },
                sort_keys=True,
            )
        )

    def _tenant(self, ref: str) -> Tenant:
        try:
            by_id = Tenant.objects.filter(pk=ref).first()
        except ValidationError:  # not a uuid: look it up by name
            by_id = None
        if by_id is not None:
            return by_id
        named = list(Tenant.objects.filter(name=ref)[:2])
        if len(named) == 1:
            return named[0]
        if named:
            raise CommandError(f"Several tenants are named {ref!r}; pass the tenant id instead.")
        raise CommandError(f"No tenant {ref!r}. Pass a tenant id or name (see the admin or create_tenant output).")
