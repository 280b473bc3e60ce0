"""manage.py bench_bm25_neighbours: how much other tenants' data reorders one user's lexical ranking."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.test.utils import override_settings

from bench import bm25_neighbours, locomo_data
from core import engine


class Command(BaseCommand):
    help = (
        "On a fresh database: load each LoCoMo conversation (observations) as one user alone, rank every "
        "category 1-4 question by lexical recall, add --times x its facts of other users (the other "
        "conversations, as observations and as dialogue turns) in another tenant, rank again, and print "
        "recall@10 both ways, the top-10 overlap, how often the order is unchanged and Kendall's tau. "
        "Words only (no embedding). docs/recall.md, 'Other users' data and BM25'."
    )

    def add_arguments(self, parser):
        parser.add_argument("--data", required=True, help="a LoCoMo JSON file or a folder of them")
        parser.add_argument("--times", type=int, default=10, help="neighbours' facts per fact of the user (10)")
        parser.add_argument("--neighbours", default="observations,turns", help="observations and/or turns")
        parser.add_argument(
            "--max-sessions", type=int, help="keep each conversation's first N sessions (a user with few facts)"
        )
        parser.add_argument("--json", dest="json_out", help="write the results as JSON here")

    def handle(self, *args, data, times, neighbours, max_sessions, json_out, **options):
        path = Path(data)
        kinds = [k.strip() for k in neighbours.split(",") if k.strip()]
        if bad := [k for k in kinds if k not in bm25_neighbours.NEIGHBOURS]:
            raise CommandError(f"Unknown --neighbours {bad}; choose observations and/or turns.")
        if times < 1 or (max_sessions is not None and max_sessions < 1):
            raise CommandError("--times and --max-sessions need a positive number.")
        try:
            conversations = locomo_data.load_conversations(path)
        except (OSError, ValueError) as exc:
            raise CommandError(f"Could not read {path}: {exc}") from exc
        if max_sessions:
            conversations = [(name, locomo_data.first_sessions(conv, max_sessions)) for name, conv in conversations]
        # Query logging would keep every statement of thousands of recalls in memory.
        with override_settings(DEBUG=False):
            try:
                rows = bm25_neighbours.measure(conversations, times, kinds, progress=self.stderr.write)
            except ValueError as exc:
                raise CommandError(str(exc)) from exc
        payload = {"engine": engine.current().name, "times": times, "max_sessions": max_sessions, "results": rows}
        self.stdout.write(json.dumps(payload, indent=2))
        if json_out:
            Path(json_out).write_text(json.dumps(payload, indent=2))
