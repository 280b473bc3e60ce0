"""manage.py backup [DEST]: a consistent copy of the store while it serves (docs/deployment.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from core.backup.manifest import ProgramFailed
from memory_service.backup import store

STEPS = 4


class Command(BaseCommand):
    help = (
        "Copy the store into a new folder (default: a dated one under MEMORY_BACKUP_DIR) with a manifest of "
        "its schema version, rows per table and checksums, while the service keeps serving. Dated backups "
        "beyond MEMORY_BACKUP_KEEP are deleted afterwards."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("dest", nargs="?", help="a folder that does not exist yet")

    def handle(self, *args: Any, dest: str | None, **options: Any) -> None:
        folder = Path(dest) if dest else store.default_folder()
        with tqdm(total=STEPS, desc="backup", unit="step", file=self.stderr) as bar:

            def progress(text: str) -> None:
                bar.set_postfix_str(text)
                bar.update(1)

            try:
                manifest = store.take(folder, progress)
            except (FileExistsError, ProgramFailed) as exc:
                raise CommandError(str(exc)) from exc
        pruned = store.prune(settings.MEMORY_BACKUP_KEEP) if not dest else []
        rows = sum(manifest.row_counts.values())
        self.stdout.write(
            f"wrote {folder}: {manifest.facts} facts, {rows} rows in {len(manifest.row_counts)} tables, "
            f"{manifest.seconds:.1f} s"
        )
        for old in pruned:
            self.stdout.write(f"deleted the older backup {old} (MEMORY_BACKUP_KEEP={settings.MEMORY_BACKUP_KEEP})")
