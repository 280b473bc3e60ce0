from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from facts.models import SCOPES, ApiKey, Tenant


class Command(BaseCommand):
    help = "Create a tenant and its first API key. Prints tenant_id=… and api_key=… (the key is shown only once)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")
        parser.add_argument("--key-name", default="default")
        parser.add_argument("--scopes", default=",".join(SCOPES), help="Comma-separated: read,write,admin")

    def handle(self, *args: Any, name: str, key_name: str, scopes: str, **options: Any) -> None:
        wanted = [s.strip() for s in scopes.split(",") if s.strip()]
        unknown = sorted(set(wanted) - set(SCOPES))
        if not wanted or unknown:
            raise CommandError(f"Unknown scopes {unknown or '(none given)'}; choose from {', '.join(SCOPES)}.")
        if not name.strip():
            raise CommandError("The tenant name must not be empty.")
        tenant = Tenant.objects.create(name=name.strip())
        _, raw = ApiKey.objects.issue(tenant=tenant, name=key_name, scopes=wanted)
        self.stdout.write(f"tenant_id={tenant.id}")
        self.stdout.write(f"api_key={raw}")
