"""manage.py bench_backup: the backup and restore drill of docs/measurements.md, on `make run`'s
set-up (gunicorn, the embedded broker, one worker), with the steps in bench/backup_drill.py."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from bench import backup_drill, throwaway
from bench.api.run import ProgressStream
from bench.locomo_data import load_conversations

UNLIMITED = "1000000/minute"


class Command(BaseCommand):
    help = (
        "In a throwaway `make run` set-up: build a store of --facts synthetic facts plus a few users told "
        "facts through the API; stream LoCoMo turns through the turn API at --rate turns/s while "
        "`manage.py backup` runs; erase one user and forget one fact of another through the API; restore "
        "the backup into a fresh folder with the live erasure journal. Reports the backup's and restore's "
        "times, the manifest, the API's latencies before, during and after the backup, and whether rows, "
        "facts with their history and a sample of recalls equal the live store's, with the erased texts "
        "in no file of the restored folder."
    )

    def add_arguments(self, parser):
        parser.add_argument("--data", required=True, help="a LoCoMo JSON file or a folder of them (the stream)")
        parser.add_argument("--facts", type=int, default=100_000, help="facts in the built store (100000)")
        parser.add_argument("--rate", type=float, default=5.0, help="turns per second streamed (5)")
        parser.add_argument("--baseline-seconds", type=float, default=30.0, help="stream before the backup (30)")
        parser.add_argument("--after-seconds", type=float, default=15.0, help="stream after the backup (15)")
        parser.add_argument("--queries", type=int, default=50, help="recalls compared (50)")
        parser.add_argument("--sample-users", type=int, default=20, help="built users whose facts are compared (20)")
        parser.add_argument("--timeout", type=float, default=600.0, help="give up waiting for the worker after (600 s)")
        parser.add_argument("--json", dest="json_out", help="write the report as JSON here")
        parser.add_argument("--keep", action="store_true", help="keep the temp folder (stores, backup, logs)")

    def handle(self, *args, data, json_out, keep, **options):
        path = Path(data).resolve()
        if not path.exists():
            raise CommandError(f"{path} does not exist; pass a LoCoMo JSON file or folder with --data.")
        drill = backup_drill.Options(**{name: options[name] for name in backup_drill.Options.__dataclass_fields__})
        if drill.facts < backup_drill.FACTS_PER_USER or min(drill.rate, drill.queries, drill.timeout) <= 0:
            raise CommandError(
                f"--facts must be at least {backup_drill.FACTS_PER_USER}; --rate, --queries and --timeout positive."
            )
        if min(drill.baseline_seconds, drill.after_seconds, drill.sample_users) < 0:
            raise CommandError("--baseline-seconds, --after-seconds and --sample-users must be at least 0.")
        if json_out and not Path(json_out).resolve().parent.is_dir():
            raise CommandError(f"The folder of --json {json_out} does not exist.")
        if workdir := throwaway.enter_rerun():
            report = backup_drill.run(load_conversations(path), drill, workdir, ProgressStream(self.stderr))
            if json_out:
                Path(json_out).write_text(json.dumps(report, indent=2))
            self.stdout.write(render(report))
            if json_out:
                self.stdout.write(f"wrote {json_out}")
            return
        argv = ["--data", str(path), *(f"--{name.replace('_', '-')}={value}" for name, value in vars(drill).items())]
        argv += ["--json", str(Path(json_out).resolve())] if json_out else []
        throwaway.rerun(
            "bench_backup",
            argv,
            what="The drill",
            keep=keep,
            stdout=self.stdout,
            stderr=self.stderr,
            env={"MEMORY_RATE_LIMIT_WRITE": UNLIMITED, "MEMORY_RATE_LIMIT_READ": UNLIMITED},
        )


def _latency(phase: dict) -> str:
    times = f"p50 {phase['p50_ms']} / p95 {phase['p95_ms']} / max {phase['max_ms']} ms"
    return f"{times} ({phase['requests']} posts, {phase['statuses']})"


def render(report: dict) -> str:
    backup, restore, counts = report["backup"], report["restore"], report["counts"]
    same, erased = report["same_as_live"], report["erased"]
    lines = [
        f"store: {backup['facts']:,} facts, {backup['rows']:,} rows in {backup['tables']} tables, "
        f"{backup['bytes'] / 2**20:.1f} MiB copied",
        f"backup: {backup['copy_seconds']} s (manifest), {backup['process_seconds']} s for the manage.py process",
        f"restore into a fresh folder: {restore['seconds']} s (its own), "
        f"{restore['process_seconds']} s for the manage.py process",
        f"  {restore['printed']}",
        "posts to /turns:",
        *(f"  {phase:>6} the backup: {_latency(report['posts'][phase])}" for phase in backup_drill.PHASES),
        f"rows: {counts['tables_compared']} tables equal to the manifest but for the erasures: "
        f"{counts['equal_but_erasures']} {counts['unequal'] or ''}",
        f"  lexical index whole: {counts['index_whole']}; vectors left to a worker: "
        f"{counts['vectors_waiting_for_a_worker']}",
        f"  the erasures changed: {counts['erasure_delta']}",
        f"same as the live store: {same['users_equal']} of {same['users']} users ({same['facts_compared']} facts, "
        f"{same['history_rows_compared']} history rows), {same['recalls_equal']} of {same['recalls']} recalls "
        f"with the same facts ({same['recalls_in_the_same_order']} in the same order, "
        f"{same['recalls_with_answers']} with answers)",
        f"erased: {report['erasures']['erased_user']} rows left {erased['erased_user_rows']}, forgotten fact rows "
        f"left {erased['forgotten_fact_rows']}; {erased['gone_texts']} texts in the restored files: "
        f"{erased['gone_texts_found_in_restored'] or 'none'} (in the backup: {erased['gone_texts_found_in_backup']}; "
        f"a kept fact found: {erased['kept_text_found_in_restored']})",
        f"worker restarts: {report['worker_restarts']}; load average at start "
        f"{' '.join(f'{x:.2f}' for x in report['load_average']['start'])}, at end "
        f"{' '.join(f'{x:.2f}' for x in report['load_average']['end'])}",
        "checks: " + ", ".join(f"{name} {'yes' if ok else 'NO'}" for name, ok in report["checks"].items()),
        "PASSED" if report["passed"] else "FAILED",
    ]
    return "\n".join(lines)
