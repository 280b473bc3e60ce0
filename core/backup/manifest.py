"""What a backup folder holds and how a restore knows it is whole (docs/deployment.md,
"Backups and restore"): `manifest.json` beside the copy, written last.

The manifest is signed (an HMAC under a key derived from SECRET_KEY, which no backup holds):
whoever can change a backup folder could otherwise move its `journal_seq` past every later
erasure and have a restore bring the erased back.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils.crypto import salted_hmac

from core.private_files import private_text

FORMAT = "memory-service-backup/1"
NAME = "manifest.json"
# The salt keeps the module's old path: a new one would fail every older backup's check.
_SIGNING_SALT = "memory_service.backup.manifest"


class Damaged(Exception):
    """The backup is incomplete or its files are not what the manifest says."""


class Refused(Exception):
    """The restore cannot go ahead; nothing was changed."""


class ProgramFailed(Exception):
    """A program the backup or restore runs (pg_dump, pg_restore, ...) failed or is missing."""


# A step's name, for the commands' progress bars.
Progress = Callable[[str], None] | None


def step(progress: Progress, text: str) -> None:
    if progress:
        progress(text)


@dataclass(frozen=True)
class Copy:
    """What an engine's backup wrote: the copy's file, its rows per table, its migrations."""

    file: Path
    row_counts: dict[str, int]
    migrations: dict[str, list[str]]


def check_counts(manifest: Manifest, found: dict[str, int]) -> None:
    wrong = {t: (n, found.get(t)) for t, n in manifest.row_counts.items() if found.get(t) != n}
    if wrong:
        sample = ", ".join(f"{t}: {n} expected, {m} found" for t, (n, m) in list(wrong.items())[:3])
        raise Damaged(f"The restored copy does not hold the rows the manifest lists ({sample}).")


@dataclass
class Manifest:
    engine: str
    taken_at: str
    journal_seq: int
    migrations: dict[str, list[str]]
    row_counts: dict[str, int]
    files: dict[str, dict[str, Any]] = field(default_factory=dict)
    seconds: float = 0.0
    journal_id: str = ""
    format: str = FORMAT
    # Empty in a backup taken before manifests were signed.
    signature: str = ""

    def write(self, folder: Path) -> None:
        fields = asdict(self)
        fields.pop("signature")
        self.signature = _sign(fields, settings.SECRET_KEY)
        # Table names and counts only, but private like everything else in the folder.
        private_text(folder / NAME, json.dumps({**fields, "signature": self.signature}, indent=2, sort_keys=True))

    @property
    def signed(self) -> bool:
        return bool(self.signature)

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


def describe_file(path: Path) -> dict[str, Any]:
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
    if manifest.signed:
        _check_signature(path, raw)
    for name, expected in manifest.files.items():
        _check_file(folder / name, expected)
    return manifest


def _sign(fields: dict[str, Any], secret: str | bytes) -> str:
    body = json.dumps(fields, sort_keys=True, separators=(",", ":"))
    return salted_hmac(_SIGNING_SALT, body, secret=secret, algorithm="sha256").hexdigest()


def _check_signature(path: Path, raw: dict[str, Any]) -> None:
    fields = {name: value for name, value in raw.items() if name != "signature"}
    # SECRET_KEY_FALLBACKS: a backup signed before the key was rotated.
    for secret in [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]:
        if hmac.compare_digest(_sign(fields, secret), str(raw["signature"])):
            return
    raise Damaged(
        f"{path} does not match its signature: it was changed after the backup was taken, or signed under "
        "another SECRET_KEY (give this service the SECRET_KEY of the one that took it, or list that key in "
        "SECRET_KEY_FALLBACKS)."
    )


def _check_file(path: Path, expected: dict[str, Any]) -> None:
    if not path.is_file():
        raise Damaged(f"{path.name} is missing from the backup.")
    if path.stat().st_size != expected.get("bytes"):
        raise Damaged(f"{path.name} has {path.stat().st_size} bytes; the manifest says {expected.get('bytes')}.")
    if sha256_of(path) != expected.get("sha256"):
        raise Damaged(f"{path.name} does not match its checksum in the manifest: the copy is damaged.")
