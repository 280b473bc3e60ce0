"""manage.py eval_pipeline: LoCoMo conversations replayed through the API, a real Celery worker
and the write path, with a replay extractor; losses by cause and recall@k next to direct load."""

from __future__ import annotations

import json
import os
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from bench import throwaway
from bench.options import k_list
from bench.pipeline.gate import gate_analysis
from bench.pipeline.replay_llm import conversation_plan
from bench.pipeline.run import Options, read_conversations, run
from facts.extraction.salience import skip_reason
from recall.services import MODES


class Command(BaseCommand):
    help = (
        "Replay LoCoMo-format conversations through the service (REST API, a Celery worker, the write "
        "path and the index sync) on a throwaway database, with a loopback extractor answering each call "
        "with the observations of the turns it is shown. Reports turns the salience gate skipped, "
        "observations that did not become live facts by cause, LLM calls, time per turn, and recall@k "
        "next to the direct load of eval_recall on the same data."
    )

    def add_arguments(self, parser):
        parser.add_argument("--data", required=True, help="a LoCoMo JSON file or a folder of them")
        parser.add_argument("--pace", type=float, default=0.0, help="seconds between two posts (default 0)")
        parser.add_argument("--json", dest="json_out", help="write the report as JSON here")
        parser.add_argument("--k", default="5,10,20")
        parser.add_argument("--modes", default="hybrid", help="recall modes to score, comma-separated")
        parser.add_argument("--max-turns", type=int, help="replay only each conversation's first N turns")
        parser.add_argument("--concurrency", type=int, default=2, help="worker processes (default 2)")
        parser.add_argument("--timeout", type=float, default=1800, help="seconds to wait for the worker to drain")
        parser.add_argument(
            "--stall", type=float, default=600, help="stop waiting when nothing moved for this many seconds"
        )
        parser.add_argument(
            "--gate-only",
            action="store_true",
            help="only the offline gate analysis: which turns the salience gate skips, and which of "
            "those an observation was stated in (seconds, no server, no database)",
        )
        parser.add_argument("--keep", action="store_true", help="keep the temp folder (database, logs)")

    def handle(
        self, *args, data, pace, json_out, k, modes, max_turns, concurrency, timeout, stall, keep, gate_only, **options
    ):
        path = Path(data).resolve()
        if not path.exists():
            raise CommandError(f"{path} does not exist; pass a LoCoMo JSON file or folder with --data.")
        if pace < 0 or concurrency < 1 or timeout <= 0 or stall <= 0 or (max_turns is not None and max_turns < 1):
            raise CommandError("--pace must be >= 0, --concurrency, --timeout and --max-turns positive.")
        mode_list = [m.strip() for m in modes.split(",") if m.strip()]
        if not mode_list or any(m not in MODES for m in mode_list):
            raise CommandError(f"Unknown or no mode(s) in {modes!r}; choose from {', '.join(MODES)}.")
        ks = k_list(k)
        if gate_only:
            self._gate_only(path, max_turns, json_out)
            return
        if workdir := throwaway.enter_rerun():
            result = run(
                Options(path, pace, ks, mode_list, max_turns, concurrency, timeout, stall), workdir, self.stderr
            )
            self.stdout.write(render(result))
            if json_out:
                Path(json_out).write_text(json.dumps(result, indent=2))
                self.stdout.write(f"wrote {json_out}")
            return
        self._rerun_in_throwaway(path, pace, json_out, k, modes, max_turns, concurrency, timeout, stall, keep)

    def _gate_only(self, path: Path, max_turns: int | None, json_out: str | None) -> None:
        plans = [conversation_plan(name, conv) for name, conv in read_conversations(path, max_turns)]
        result = gate_analysis(plans, skip_reason)
        self.stdout.write(json.dumps(result, indent=2))
        if json_out:
            Path(json_out).write_text(json.dumps(result, indent=2))

    def _rerun_in_throwaway(self, path, pace, json_out, k, modes, max_turns, concurrency, timeout, stall, keep):
        """Run the measurement again as a child process whose settings point at a temp folder."""
        args = ["--data", str(path), "--pace", str(pace), "--k", k, "--modes", modes]
        args += ["--concurrency", str(concurrency), "--timeout", str(timeout), "--stall", str(stall)]
        if max_turns:
            args += ["--max-turns", str(max_turns)]
        if json_out:
            args += ["--json", str(Path(json_out).resolve())]
        env = {
            "LOG_LEVEL": os.environ.get("EVAL_PIPELINE_LOG_LEVEL", "WARNING"),
            # The replay posts as fast as the API takes it: it measures the pipeline, not the limiter.
            "MEMORY_RATE_LIMIT_WRITE": "off",
            "MEMORY_RATE_LIMIT_READ": "off",
            "MEMORY_RATE_LIMIT_RECALL": "off",
        }
        throwaway.rerun(
            "eval_pipeline",
            args,
            what="The replay",
            keep=keep,
            stdout=self.stdout,
            stderr=self.stderr,
            env=env,
        )


def _row(label: str, row: dict, ks: list[str]) -> str:
    return f"  {label:<22}" + " ".join(f"{row.get(k, 0):>10.4f}" for k in ks)


def render(result: dict) -> str:
    """The report as the terminal shows it (the JSON holds the same and the examples)."""
    gate, lost = result["gate"], result["lost"]
    lines = [
        f"conversations={result['conversations']} turns={result['turns']} observations={result['observations']} "
        f"questions={result['questions']} llm_calls={result['llm_calls']}",
        f"turns skipped by the gate: {gate['skipped']} {gate['by_reason']}",
        f"  skipped turns with an observation anchored on them: {gate['skipped_with_observation']} "
        f"({gate['share_of_skipped_with_observation']:.2%} of skipped)",
        f"observations not live: {lost['total']} ({lost['share']:.2%}); to the gate: {lost['to_gate']} "
        f"({lost['to_gate_share']:.2%})",
    ]
    lines += [f"  {cause}: {n}" for cause, n in lost["by_cause"].items()]
    t = result["turn_ms"]
    lines.append(
        f"time per turn (ms): wall {t['wall_per_turn']}, processing p50 {t['processing']['p50']} "
        f"p95 {t['processing']['p95']}, queue wait p50 {t['queue_wait']['p50']} p95 {t['queue_wait']['p95']}"
    )
    lines.append(f"seconds: {result['seconds']}; open at the end: {result['open_at_end']}")
    for mode, pipeline in result["recall"]["pipeline"].items():
        cols = [c for c in pipeline if c.startswith("recall@") or c == "hit@10"]
        lines.append(f"recall ({mode})         " + " ".join(f"{c:>10}" for c in cols))
        lines.append(_row("pipeline", pipeline, cols))
        direct = result["recall"]["direct_load"][mode]
        lines.append(_row("direct load", direct, cols))
        lines.append(_row("pipeline - direct", {c: pipeline[c] - direct[c] for c in cols}, cols))
    return "\n".join(lines)
