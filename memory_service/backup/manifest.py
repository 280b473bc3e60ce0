"""What a backup folder holds and how a restore knows it is whole (docs/deployment.md,
"Backups and restore"): `manifest.json` beside the copy, written last."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from memory_service.private_files import private_text

FORMAT = "memory-service-backup/1"
NAME = "manifest.json"


class Damaged(Exception):
    """The backup is incomplete or its files are not what the manifest says."""


@dataclass
class Manifest:
    engine: str
    taken_at: str
    journal_seq: int
    migrations: dict[str, list[str]]
    row_counts: dict[str, int]
    files: dict[str, dict] = field(default_factory=dict)
    seconds: float = 0.0
    journal_id: str = ""
    format: str = FORMAT

    def write(self, folder: Path) -> None:
        # Table names and counts only, but private like everything else in the folder.
        private_text(folder / NAME, json.dumps(asdict(self), indent=2, sort_keys=True))

    @property
    def facts(self) -> int:
        return self.row_counts.get("facts_fact", 0)

    @property
    def migration_keys(self) -> set[tuple[str, str]]:
        """The applied migrations as (app, name), the form Django's MigrationLoader uses."""
        return {(app, name) for app, names in self.migrations.items() for name in names}


def by_app(applied: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """(app, name) pairs as the manifest keeps them: each app's names, in order."""
    grouped: dict[str, list[str]] = {}
    for app, name in sorted(applied):
        grouped.setdefault(app, []).append(name)
    return grouped


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def describe_file(path: Path) -> dict:
    return {"bytes": path.stat().st_size, "sha256": sha256_of(path)}


def read(folder: Path) -> Manifest:
    """The manifest of a backup folder, after checking every file it lists."""
    path = folder / NAME
    if not path.is_file():
        raise Damaged(f"{folder} has no {NAME}: not a backup, or one that did not finish.")
    try:
        raw = json.loads(path.read_text())
        manifest = Manifest(**raw)
    except (ValueError, TypeError) as exc:
        raise Damaged(f"{path} cannot be read: {exc}") from exc
    if manifest.format != FORMAT:
        raise Damaged(f"{path} has format {manifest.format!r}; this version reads {FORMAT!r}.")
    for name, expected in manifest.files.items():
        _check_file(folder / name, expected)
    return manifest


def _check_file(path: Path, expected: dict) -> None:
    if not path.is_file():
        raise Damaged(f"{path.name} is missing from the backup.")
    if path.stat().st_size != expected.get("bytes"):
        raise Damaged(f"{path.name} has {path.stat().st_size} bytes; the manifest says {expected.get('bytes')}.")
    if sha256_of(path) != expected.get("sha256"):
        raise Damaged(f"{path.name} does not match its checksum in the manifest: the copy is damaged.")
