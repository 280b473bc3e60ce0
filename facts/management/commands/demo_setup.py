from __future__ import annotations

import secrets
from contextlib import suppress
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

from core.private_files import private_text
from facts.models import ApiKey, Tenant, hash_api_key

# The demo key's secret, kept (0600, beside the secret key) so that `make run` prints the
# same key at every start and clients configured with it keep working.
KEY_FILE = "demo_api_key"


class Command(BaseCommand):
    help = (
        "Create (once) the demo tenant and staff login; print its API key (the same one at each "
        "start unless --rotate-key) and a fresh staff password."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--url", default="http://127.0.0.1:8000")
        parser.add_argument(
            "--rotate-key", action="store_true", help="Revoke the demo key and print a new one (make run ROTATE_KEY=1)."
        )

    def handle(self, *args: Any, url: str, rotate_key: bool = False, **options: Any) -> None:
        tenant, _ = Tenant.objects.get_or_create(name="demo")
        key_file = Path(settings.VAR_DIR) / KEY_FILE
        raw = None if rotate_key else _kept_key(tenant, key_file)
        if raw is None:
            raw = _new_key(tenant, key_file)
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


def _kept_key(tenant: Tenant, key_file: Path) -> str | None:
    """The kept demo key, if it is still one of the demo tenant's live keys."""
    try:
        raw = key_file.read_text().strip()
    except OSError:
        return None
    live = ApiKey.objects.filter(tenant=tenant, name="demo", key_hash=hash_api_key(raw), revoked_at__isnull=True)
    return raw if raw and live.exists() else None


def _new_key(tenant: Tenant, key_file: Path) -> str:
    """Revoke the demo keys (only the printed one works afterwards) and issue and keep a new one."""
    for key in ApiKey.objects.filter(tenant=tenant, name="demo", revoked_at__isnull=True):
        key.revoke()
    _, raw = ApiKey.objects.issue(tenant=tenant, name="demo")
    with suppress(FileNotFoundError):
        key_file.unlink()
    private_text(key_file, raw)
    return raw
