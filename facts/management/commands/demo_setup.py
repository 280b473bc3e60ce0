from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from facts.models import ApiKey, Tenant


class Command(BaseCommand):
    help = "Create (once) the demo tenant and staff login; print a fresh API key and password each run."

    def add_arguments(self, parser):
        parser.add_argument("--url", default="http://127.0.0.1:8000")

    def handle(self, *args, url: str, **options):
        tenant, _ = Tenant.objects.get_or_create(name="demo")
        # A new key each start: the previous one is revoked so only the printed key works.
        for key in ApiKey.objects.filter(tenant=tenant, name="demo", revoked_at__isnull=True):
            key.revoke()
        _, raw = ApiKey.objects.issue(tenant=tenant, name="demo")
        User = get_user_model()
        staff, _ = User.objects.get_or_create(username="demo", defaults={"is_staff": False})
        password = secrets.token_urlsafe(12)
        staff.set_password(password)
        staff.save()
        tenant.staff.add(staff)
        self.stdout.write(
            "\n".join(
                [
                    "",
                    "Memory service (embedded mode)",
                    f"  tenant_id={tenant.id}",
                    f"  api_key={raw}",
                    f"  dashboard: {url}/  login: demo / {password}",
                    f"  API docs:  {url}/api/v1/docs",
                    "",
                ]
            )
        )
