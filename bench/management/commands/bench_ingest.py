"""manage.py bench_ingest: a backlog of turns on `make run`'s set-up (gunicorn, the embedded
broker, one worker with two processes, the offline extractor), posted through the API."""

from __future__ import annotations

import itertools
import json
import threading
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from tqdm import tqdm

from bench import ingest, throwaway
from bench.api.client import Connection
from bench.api.run import ProgressStream
from bench.locomo_data import load_conversations
from bench.pipeline.replay import wait_for_worker
from facts.models import ApiKey, MemoryUser, Tenant

WORKER_CONCURRENCY = 2  # as scripts/run.sh starts it
PROBE_SECONDS = 0.5


class Command(BaseCommand):
    help = (
        "Post LoCoMo turns through the turn API of a throwaway service started as `make run` starts it "
        "(gunicorn, embedded broker, a worker with --concurrency 2, the offline extractor): at --rate "
        "turns/s from one client, or as fast as the API takes them (--rate 0) from --clients clients. "
        "While posting and until the worker is through, a probe reads a turn's status and recalls twice "
        "a second. Reports request latencies (posts and probes), requests over 1 s, the seconds from the "
        "last post until every turn was processed, turns never processed, and worker restarts."
    )

    def add_arguments(self, parser):
        parser.add_argument("--data", required=True, help="a LoCoMo JSON file or a folder of them")
        parser.add_argument("--turns", type=int, default=675, help="how many turns to post (default 675)")
        parser.add_argument("--rate", type=float, default=5.0, help="turns per second; 0 = as fast as it takes them")
        parser.add_argument("--clients", type=int, default=4, help="posting clients with --rate 0 (default 4)")
        parser.add_argument("--timeout", type=float, default=900, help="seconds to wait for the worker (default 900)")
        parser.add_argument("--json", dest="json_out", help="write the report as JSON here")
        parser.add_argument("--keep", action="store_true", help="keep the temp folder (database, logs)")

    def handle(self, *args, data, turns, rate, clients, timeout, json_out, keep, **options):
        path = Path(data).resolve()
        if not path.exists():
            raise CommandError(f"{path} does not exist; pass a LoCoMo JSON file or folder with --data.")
        if turns < 1 or rate < 0 or clients < 1 or timeout <= 0:
            raise CommandError("--turns, --clients and --timeout must be positive, --rate at least 0.")
        if json_out and not Path(json_out).resolve().parent.is_dir():
            raise CommandError(f"The folder of --json {json_out} does not exist.")
        posts = ingest.plan(load_conversations(path), turns)
        if len(posts) < turns:
            raise CommandError(f"{path} holds {len(posts)} turns; ask for at most that many with --turns.")
        if workdir := throwaway.enter_rerun():
            result = self._measure(posts, rate, clients, timeout, workdir)
            self.stdout.write(render(result))
            if json_out:
                Path(json_out).write_text(json.dumps(result, indent=2))
                self.stdout.write(f"wrote {json_out}")
            return
        argv = ["--data", str(path), "--turns", str(turns), "--rate", str(rate), "--clients", str(clients)]
        argv += ["--timeout", str(timeout)] + (["--json", str(Path(json_out).resolve())] if json_out else [])
        throwaway.rerun("bench_ingest", argv, what="The benchmark", keep=keep, stdout=self.stdout, stderr=self.stderr)

    def _measure(self, posts, rate: float, clients: int, timeout: float, workdir: Path) -> dict:
        tenant = Tenant.objects.create(name="bench-ingest")
        _, key = ApiKey.objects.issue(tenant=tenant, name="bench_ingest", scopes=["read", "write"])
        stream = ProgressStream(self.stderr)
        with throwaway.service(workdir=workdir, concurrency=WORKER_CONCURRENCY, server="gunicorn") as stack:
            sent, probes = ingest.Timings(), ingest.Timings()
            stop = threading.Event()
            prober = threading.Thread(target=_probe, args=(stack.url, key, posts, probes, stop), daemon=True)
            prober.start()
            started = time.monotonic()
            with tqdm(total=len(posts), desc="posting turns", unit="turn", file=stream) as bar:
                if rate > 0:
                    ingest.post_paced(stack.url, key, posts, rate, sent, bar.update)
                else:
                    ingest.post_flat_out(stack.url, key, posts, clients, sent, bar.update)
            last_post, posting_s = timezone.now(), time.monotonic() - started
            users = list(MemoryUser.objects.filter(tenant=tenant))
            with tqdm(total=len(posts), desc="worker", unit="turn", file=stream) as bar:
                open_work = wait_for_worker(users, len(posts), timeout=timeout, stall=timeout, progress=bar.update)
            stop.set()
            prober.join()
            restarts = stack.worker.restarts
        return {
            "turns": len(posts),
            "rate": rate or None,
            "clients": 1 if rate else clients,
            "posting_seconds": round(posting_s, 1),
            "achieved_rate": round(len(posts) / posting_s, 1) if posting_s else None,
            "posts": sent.summary(),
            "probes": probes.summary(),
            "last_turn_finished_after_last_post_s": ingest.last_finished_after(users, last_post),
            "states": ingest.states(users),
            "open_at_end": open_work,
            "worker_restarts": restarts,
        }


def _probe(url: str, key: str, posts, timings: ingest.Timings, stop: threading.Event) -> None:
    """A reader beside the backlog: a turn's status, then a recall, every PROBE_SECONDS."""
    conn = Connection(url, key)
    user, turn_id = posts[0].user, posts[0].spec.dia_id
    recall = json.dumps({"query": "what did they talk about?", "k": 10}).encode()
    for n in itertools.count():
        if stop.wait(PROBE_SECONDS):
            return
        method, path, body = (
            ("GET", f"/users/{user}/turns/{turn_id}", None) if n % 2 else ("POST", f"/users/{user}/recall", recall)
        )
        ingest.timed(conn, method, path, body, expect=200, timings=timings)


def render(result: dict) -> str:
    posts, probes = result["posts"], result["probes"]
    pace = f"{result['rate']} turns/s" if result["rate"] else f"as fast as taken, {result['clients']} clients"
    return "\n".join(
        [
            f"{result['turns']} turns posted ({pace}) in {result['posting_seconds']} s, "
            f"{result['achieved_rate']} turns/s",
            _latency_line("posts", posts),
            _latency_line("probes (status, recall)", probes),
            f"last turn processed {result['last_turn_finished_after_last_post_s']} s after the last post; "
            f"turn states {result['states']}",
            f"never processed: {result['open_at_end']}; worker restarts: {result['worker_restarts']}",
        ]
    )


def _latency_line(label: str, row: dict) -> str:
    return (
        f"{label}: {row['requests']} requests {row['statuses']}, p50 {row['p50_ms']} / p95 {row['p95_ms']} / "
        f"p99 {row['p99_ms']} / max {row['max_ms']} ms, over 1 s: {row['slower_than_1s']}"
    )
