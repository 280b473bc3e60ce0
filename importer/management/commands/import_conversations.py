"""manage.py import_conversations: bring a person's history in from another assistant."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from core.errors import ServiceError
from facts.management.tenants import tenant_from_arg
from importer.formats import FORMATS
from importer.services import import_start, import_step


class Command(BaseCommand):
    help = (
        "Import one person's conversations from a ChatGPT export (conversations.json), a Claude export "
        "(conversations.json) or a JSONL file of turns, through the same pipeline as live turns, each turn "
        "with its original time. Idempotent: a second run adds nothing. Killed half-way, run it again with "
        "the same file and it goes on where it stopped. Paced by MEMORY_IMPORT_TURNS_PER_SECOND and "
        "MEMORY_IMPORT_MAX_WAITING so live traffic keeps its latency."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tenant", required=True, help="tenant id (uuid) or exact tenant name")
        parser.add_argument("--user", required=True, help="the tenant's own id of the person")
        parser.add_argument("--format", required=True, choices=FORMATS, help="what the file is")
        parser.add_argument("file", type=Path, help="the export file")

    def handle(self, *args: Any, tenant: str, user: str, format: str, file: Path, **options: Any) -> None:
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"Cannot read {file}: {exc}. Give the path of the export file (UTF-8).") from exc
        try:
            batch, created = import_start(
                tenant=tenant_from_arg(tenant, by_name=True), user_id=user, kind=format, text=text
            )
        except ServiceError as exc:
            raise CommandError(f"Nothing was imported. {exc.detail}") from exc
        if batch is None:
            raise CommandError(f"Nothing was imported: {file} holds no message of the person in {format} form.")
        if not created:
            self.stderr.write(
                f"Going on with the import of this file started at {batch.created_at:%Y-%m-%d %H:%M} UTC."
            )
        with tqdm(total=batch.total, initial=batch.posted, desc="import", unit="turn", file=self.stderr) as bar:
            while True:
                started = time.monotonic()
                step = import_step(batch.pk)
                if step.batch is None:
                    raise CommandError("The person was erased while their import ran; it stopped there.")
                bar.update(step.posted)
                if step.batch.state == "done":
                    break
                # A step says how long until the next: a second, or longer for a held-back or
                # yielding one (importer.services).
                pause = step.wait - (time.monotonic() - started)
                time.sleep(max(pause, 0.0))
        done = step.batch
        summary = {
            "import_id": done.pk,
            "turns": done.total,
            "added": done.added,
            "withheld": done.withheld,
            "already_there": done.existing,
            "refused": done.refused,
        }
        self.stdout.write(json.dumps(summary, sort_keys=True))
