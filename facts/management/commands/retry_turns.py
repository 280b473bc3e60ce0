"""Queue failed turns again (and, optionally, turns stuck queued/extracting)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from facts.management.tenants import tenant_from_arg
from facts.services.turns import turns_requeue


class Command(BaseCommand):
    help = (
        "Queue every failed turn for extraction again; their messages were kept because the session cursor did "
        "not move. With --stuck-minutes N, also re-queue turns still queued or extracting after N minutes "
        "since their last start (e.g. lost with an embedded-broker worker). Applying is idempotent, so a "
        "re-queued turn never doubles."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tenant", help="only this tenant (id)")
        parser.add_argument("--stuck-minutes", type=int, help="also re-queue turns unfinished for this long")

    def handle(self, *args: Any, tenant: str | None = None, stuck_minutes: int | None = None, **options: Any) -> None:
        scope = tenant_from_arg(tenant) if tenant else None
        if stuck_minutes is not None and stuck_minutes < 1:
            raise CommandError("--stuck-minutes must be at least 1.")
        # The sweep's rule without its attempts cap: an operator asks for these turns explicitly.
        stuck_for = timedelta(minutes=stuck_minutes) if stuck_minutes else None
        count = turns_requeue(stuck_for=stuck_for, tenant=scope)
        self.stdout.write(f"queued={count}")
