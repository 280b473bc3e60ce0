from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from facts.management.tenants import tenant_from_arg
from facts.models import SCOPES, ApiKey


class Command(BaseCommand):
    help = "Issue another API key for a tenant (printed once as api_key=…), or revoke one by its prefix."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tenant_id")
        parser.add_argument("--key-name", default="default")
        parser.add_argument("--scopes", default=",".join(SCOPES))
        parser.add_argument("--revoke", metavar="PREFIX", help="Revoke the tenant's key with this prefix instead")

    def handle(
        self, *args: Any, tenant_id: str, key_name: str, scopes: str, revoke: str | None, **options: Any
    ) -> None:
        tenant = tenant_from_arg(tenant_id)
        if revoke:
            keys = list(ApiKey.objects.filter(tenant=tenant, prefix=revoke, revoked_at__isnull=True))
            if not keys:
                raise CommandError(f"No active key with prefix {revoke!r} for this tenant.")
            for key in keys:
                key.revoke()
            self.stdout.write(f"revoked={revoke}")
            return
        wanted = [s.strip() for s in scopes.split(",") if s.strip()]
        if not wanted or set(wanted) - set(SCOPES):
            raise CommandError(f"Scopes must be among {', '.join(SCOPES)}.")
        _, raw = ApiKey.objects.issue(tenant=tenant, name=key_name, scopes=wanted)
        self.stdout.write(f"api_key={raw}")
