"""manage.py move_store: the whole embedded store into an empty PostgreSQL database.

The target's URL comes from MEMORY_MOVE_TO_URL (the environment or .env): a password given
with --to would be on the command line, which `ps` shows to every user of the host, so --to
is refused when its URL carries one.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from recall import engines, move, move_vectors


class Command(BaseCommand):
    help = (
        "Copy every row of this (SQLite) store into an empty PostgreSQL database, rebuild the recall "
        "index there, and verify row counts and a sample of recalls. The source is not changed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--to",
            dest="target",
            help="the URL of an empty PostgreSQL database (user@host:port/name), without a password; "
            "default: MEMORY_MOVE_TO_URL",
        )
        parser.add_argument("--sample", type=int, default=50, help="facts recalled on both sides to verify (50)")
        parser.add_argument("--batch", type=int, default=2000)
        # Used by the command itself, run on the target to answer the sample there.
        parser.add_argument("--answer-sample", help="(internal) a JSON file of queries to recall here")
        parser.add_argument("--answers", help="(internal) where to write the answers")
        parser.add_argument("--load-vectors", help="(internal) write an export of the source's vectors here")
        parser.add_argument(
            "--reembed",
            action="store_true",
            help="compute every vector again on the target (another embedding model) instead of copying them",
        )

    def handle(
        self,
        *args: Any,
        target: str | None = None,
        sample: int = 50,
        batch: int = 2000,
        answer_sample: str | None = None,
        answers: str | None = None,
        reembed: bool = False,
        **options: Any,
    ) -> None:
        if options.get("load_vectors"):
            self.stdout.write(f"vectors loaded: {move_vectors.load(Path(options['load_vectors']))}")
            return
        if answer_sample:
            if answers is None:
                raise CommandError("--answer-sample needs --answers (where to write the answers).")
            queries = json.loads(Path(answer_sample).read_text())
            Path(answers).write_text(json.dumps(move.recall_sample(queries)))
            return
        if not engines.current().embedded:
            raise CommandError("move_store moves the embedded SQLite store; DATABASE_URL here is not SQLite.")
        try:
            if target:
                move.refuse_a_visible_password(target)
            target = target or settings.MEMORY_MOVE_TO_URL
            if not target:
                raise move.MoveRefused(
                    "Give the target: MEMORY_MOVE_TO_URL=postgresql://user:password@host:port/name (an empty "
                    "database) in the environment or .env."
                )
            alone = move.source_alone()
        except move.MoveRefused as exc:
            raise CommandError(f"Nothing was copied. {exc}") from exc
        with alone:
            self._move(target, sample, batch, reembed)
        self.stdout.write(
            "The SQLite store is unchanged: start the service with DATABASE_URL set to the target; "
            "what is written to the SQLite store from now on is not on the target."
        )

    def _move(self, target: str, sample: int, batch: int, reembed: bool) -> None:
        try:
            move.open_target(target)
            move.refuse_unless_empty()
        except move.MoveRefused as exc:
            raise CommandError(f"Nothing was copied. {exc}") from exc
        started = time.monotonic()
        self._step("migrating the target", lambda: move.migrate_target(target))
        total = sum(move.row_counts("default").values())
        with tqdm(total=total, desc="copying rows", unit="row", file=self.stderr) as bar:

            def advance(label: str, n: int) -> None:
                bar.set_postfix_str(label)
                bar.update(n)

            move.copy_rows(advance, batch=batch)
        with tempfile.TemporaryDirectory() as workdir:
            exported = None if reembed else self._export_vectors(Path(workdir))
            self._step("rebuilding the recall index on the target", lambda: move.rebuild_target_index(target, exported))
            queries = move.sample_queries(sample)
            report = move.verify(target, queries, Path(workdir))
        self._report(report, time.monotonic() - started)
        if not report.counts_equal:
            raise CommandError("Row counts differ between the source and the target; see above.")

    def _export_vectors(self, workdir: Path) -> Path:
        path = workdir / "vectors.npz"
        with tqdm(total=move.vector_rows(), desc="reading vectors", unit="vector", file=self.stderr) as bar:
            move_vectors.export(path, bar.update)
        return path

    def _step(self, name: str, action: Callable[[], object]) -> None:
        self.stderr.write(f"{name}...")
        began = time.monotonic()
        action()
        self.stderr.write(f"{name}: {time.monotonic() - began:.1f} s")

    def _report(self, report: move.Verification, seconds: float) -> None:
        for label, (source, target) in sorted(report.counts.items()):
            mark = "rebuilt" if label in move.REBUILT else "ok" if source == target else "DIFFERENT"
            self.stdout.write(f"{label:28} source={source:<9} target={target:<9} {mark}")
        self.stdout.write(
            f"recall sample: {report.sampled} facts; found by their own text in the top 10: "
            f"source {report.found_on_source}, target {report.found_on_target}; "
            f"top-10 overlap {report.top10_overlap:.3f}"
        )
        self.stdout.write(f"moved in {seconds:.1f} s")
