"""manage.py bench_db_turns: the `db` worker's CPU and statements per turn, in one process
(bench/db_turns.py; docs/measurements.md §20). Writes to the database DATABASE_URL names, under
a tenant of its own: point it at a throwaway one."""

from __future__ import annotations

import io
import json
import pstats
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from bench import db_turns
from bench.locomo_data import load_conversations


class Command(BaseCommand):
    help = (
        "Post LoCoMo turns (one person per conversation, interleaved), then claim, apply and index them in "
        "this process as a `db` worker does, the offline rules playing the model: turns/s, CPU ms and "
        "statements per turn, by stage. Use a throwaway DATABASE_URL."
    )

    def add_arguments(self, parser):
        parser.add_argument("--data", required=True, help="a LoCoMo JSON file or a folder of them")
        parser.add_argument("--turns", type=int, default=300, help="turns to post and apply (default 300)")
        parser.add_argument("--profile", help="write cProfile stats of the measured work here")
        parser.add_argument("--json", dest="json_out", help="write the report as JSON here")

    def handle(self, *args, data, turns, profile, json_out, **options):
        path = Path(data).resolve()
        if not path.exists():
            raise CommandError(f"{path} does not exist; pass a LoCoMo JSON file or folder with --data.")
        if turns < 1:
            raise CommandError("--turns must be at least 1.")
        report, meter = db_turns.run(load_conversations(path), turns, profile=bool(profile))
        self.stdout.write(json.dumps(report, indent=2))
        if profile and meter.profiler:
            meter.profiler.dump_stats(profile)
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(40)
            self.stdout.write(out.getvalue())
        if json_out:
            Path(json_out).write_text(json.dumps(report, indent=2))
