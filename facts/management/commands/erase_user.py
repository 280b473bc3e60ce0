from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from facts import privacy
from facts.management.tenants import tenant_from_arg
from facts.models import ActorKind, MemoryUser
from facts.services import Actor


class Command(BaseCommand):
    help = (
        "Erase one memory user of a tenant: facts, history, entities, edges, turns, profile and index rows, "
        "in one transaction, then a WAL checkpoint. Prints the deletion receipt (no personal data). "
        "--dry-run prints what would be erased and changes nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tenant", required=True, help="tenant id (uuid) or exact tenant name")
        parser.add_argument("user_id", help="the tenant's own id of the user")
        parser.add_argument("--dry-run", action="store_true", help="only count what would be erased")

    def handle(self, *args: Any, tenant: str, user_id: str, dry_run: bool, **options: Any) -> None:
        found = tenant_from_arg(tenant, by_name=True)
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
