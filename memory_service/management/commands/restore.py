"""manage.py restore SRC: put a backup back into a stopped service (docs/deployment.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from core.backup.manifest import Damaged, ProgramFailed, Refused
from core.db import journal
from core.db.in_use import StoreInUse
from memory_service.backup import store


class Command(BaseCommand):
    help = (
        "Restore a backup folder written by `manage.py backup` into this service's store, which must not be "
        "in use: checks the manifest's signature and checksums and reads the erasure journal, migrates an "
        "older backup to this version, re-applies every erasure made after the backup was taken, then puts "
        "it in place."
    )
    # Checks would open the store this command is about to replace.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("src", help="a backup folder (holding manifest.json)")
        parser.add_argument(
            "--accept-unsigned",
            action="store_true",
            help="restore a backup whose manifest is not signed (taken before backups were signed); every entry "
            "of the erasure journal is then re-applied",
        )

    def handle(self, *args: Any, src: str, accept_unsigned: bool = False, **options: Any) -> None:
        folder = Path(src)
        if not folder.is_dir():
            raise CommandError(f"{folder} is not a folder; pass one written by `manage.py backup`.")
        with tqdm(desc="restore", unit="step", file=self.stderr) as bar:

            def progress(text: str) -> None:
                bar.set_postfix_str(text)
                bar.update(1)

            try:
                done = store.restore(folder, progress, accept_unsigned=accept_unsigned)
            except Damaged as exc:
                raise CommandError(f"The backup is damaged; nothing was restored. {exc}") from exc
            except (Refused, StoreInUse, ProgramFailed, journal.Unreachable, journal.KeyMissing) as exc:
                raise CommandError(f"Nothing was restored. {exc}") from exc
        replayed = ", ".join(f"{n} {kind}" for kind, n in sorted(done.replayed.items())) or "none"
        self.stdout.write(
            f"restored the backup taken at {done.manifest.taken_at} ({done.manifest.facts} facts) in "
            f"{done.seconds:.1f} s; migrated: {'yes' if done.migrated else 'no'}; "
            f"erasures made since then re-applied: {replayed}"
        )
