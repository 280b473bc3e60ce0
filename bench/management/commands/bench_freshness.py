"""manage.py bench_freshness: how long until a fact just told is recalled, under a stream of turns,
on `make run`'s set-up (gunicorn, the embedded broker, one worker with two processes)."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from bench import freshness, throwaway
from bench.api.run import ProgressStream
from bench.ingest import Timings
from bench.locomo_data import load_conversations
from bench.pipeline.replay_llm import conversation_plan
from core import broker
from facts.models import ApiKey, Fact, Tenant, Turn, TurnState

WORKER_CONCURRENCY = 2  # as scripts/run.sh starts it
UNLIMITED = "1000000/minute"
SAMPLE_SECONDS = 1.0


class Command(BaseCommand):
    help = (
        "Stream LoCoMo turns through the turn API of a throwaway `make run` set-up at --rate turns/s for "
        "--seconds, with a loopback extractor answering each turn with LoCoMo's observations; every "
        "--marker-every turns a marker turn tells a user a new locker code, and one prober asks recall "
        "for each outstanding marker in turn, 10 recalls/s at most. Reports the time until each told "
        "fact is recalled (p50/p95/max), the sustained turns/s, the backlog over time and the API's "
        "latencies. --rate 0: markers only, one at a time (freshness when idle)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--data", required=True, help="a LoCoMo JSON file or a folder of them")
        parser.add_argument("--rate", type=float, default=10.0, help="turns per second (default 10; 0 = idle)")
        parser.add_argument("--seconds", type=float, default=120.0, help="how long to stream (default 120)")
        parser.add_argument("--marker-every", type=int, default=25, help="a marker after every N turns (25)")
        parser.add_argument("--idle-markers", type=int, default=20, help="markers told with --rate 0 (20)")
        parser.add_argument("--timeout", type=float, default=300.0, help="give up on a marker after (300 s)")
        parser.add_argument("--concurrency", type=int, default=WORKER_CONCURRENCY, help="worker processes (2)")
        parser.add_argument("--json", dest="json_out", help="write the report as JSON here")
        parser.add_argument("--keep", action="store_true", help="keep the temp folder (database, logs)")

    def handle(self, *args, data, rate, seconds, marker_every, idle_markers, timeout, concurrency, json_out, keep, **o):
        path = Path(data).resolve()
        if not path.exists():
            raise CommandError(f"{path} does not exist; pass a LoCoMo JSON file or folder with --data.")
        if rate < 0 or seconds <= 0 or marker_every < 1 or idle_markers < 1 or timeout <= 0 or concurrency < 1:
            raise CommandError(
                "--rate must be at least 0; --seconds, --marker-every, --idle-markers, "
                "--timeout and --concurrency positive."
            )
        if json_out and not Path(json_out).resolve().parent.is_dir():
            raise CommandError(f"The folder of --json {json_out} does not exist.")
        conversations = load_conversations(path)
        turns = int(rate * seconds) if rate else idle_markers * marker_every
        posts, markers = freshness.stream(conversations, turns, marker_every)
        if rate and len(posts) - len(markers) < turns:
            raise CommandError(f"{path} holds fewer than {turns} turns; lower --rate or --seconds.")
        if workdir := throwaway.enter_rerun():
            result = self._measure(conversations, posts, markers, rate, timeout, concurrency, workdir)
            result.update(rate=rate, seconds=seconds, marker_every=marker_every)
            self.stdout.write(render(result))
            if json_out:
                Path(json_out).write_text(json.dumps(result, indent=2))
                self.stdout.write(f"wrote {json_out}")
            return
        argv = ["--data", str(path), "--rate", str(rate), "--seconds", str(seconds)]
        argv += ["--marker-every", str(marker_every), "--idle-markers", str(idle_markers)]
        argv += ["--timeout", str(timeout), "--concurrency", str(concurrency)]
        argv += ["--json", str(Path(json_out).resolve())] if json_out else []
        throwaway.rerun(
            "bench_freshness",
            argv,
            what="The benchmark",
            keep=keep,
            stdout=self.stdout,
            stderr=self.stderr,
            env={
                "MEMORY_RATE_LIMIT_READ": UNLIMITED,
                "MEMORY_RATE_LIMIT_WRITE": UNLIMITED,
                "MEMORY_RATE_LIMIT_RECALL": UNLIMITED,
            },
        )

    def _measure(self, conversations, posts, markers, rate, timeout, concurrency, workdir: Path) -> dict:
        tenant = Tenant.objects.create(name="bench-freshness")
        _, key = ApiKey.objects.issue(tenant=tenant, name="bench_freshness", scopes=["read", "write"])
        extractor = freshness.FreshnessExtractor([conversation_plan(name, conv) for name, conv in conversations])
        llm = freshness.extractor_server(extractor).start()
        env = {"OPENAI_API_KEY": "replay", "OPENAI_BASE_URL": llm.url, "MEMORY_LLM_BACKOFF_SECONDS": "0.2"}
        stream = ProgressStream(self.stderr)
        try:
            with throwaway.service(workdir=workdir, concurrency=concurrency, server="gunicorn", env=env) as stack:
                sampler = Sampler(tenant)
                sampler.start()
                sent, probes = Timings(), freshness.Probes(stack.url, key, timeout)
                with tqdm(total=len(posts) if rate else len(markers), desc="posting", unit="turn", file=stream) as bar:
                    if rate:
                        posting = freshness.post_stream(stack.url, key, posts, markers, rate, probes, sent, bar.update)
                    else:
                        posting = freshness.post_idle(stack.url, key, markers, 2.0, probes, sent, bar.update)
                probes.join()
                drained = sampler.wait_until_drained(timeout)
                sampler.stop()
                restarts = stack.worker.restarts
        finally:
            llm.stop()
        streamed = len(posts) if rate else len(markers)
        return {
            "turns_posted": streamed,
            "posting_seconds": round(posting, 1),
            "posted_rate": round(streamed / posting, 2) if posting else None,
            "freshness": freshness.freshness(markers),
            "sustained_turns_per_s": sampler.sustained(),
            "drained_after_last_post_s": drained,
            "backlog": sampler.summary(),
            "backlog_series": sampler.samples,
            "posts": sent.summary(),
            "recall_probes": probes.timings.summary(),
            "worker_restarts": restarts,
            "worker_concurrency": concurrency,
        }


class Sampler:
    """Every second: turns finished, turns waiting, live facts not yet indexed, broker messages."""

    def __init__(self, tenant: Tenant):
        self.tenant = tenant
        self.samples: list[dict] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._started = time.monotonic()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        from django.db import connection

        try:
            while not self._stop.wait(SAMPLE_SECONDS):
                self.samples.append(self.sample())
        finally:
            connection.close()

    def sample(self) -> dict:
        turns = Turn.objects.filter(tenant=self.tenant)
        waiting = turns.filter(state__in=[TurnState.QUEUED, TurnState.EXTRACTING]).count()
        facts = Fact.objects.live().filter(tenant=self.tenant)
        url = settings.CELERY_BROKER_URL
        return {
            "t": round(time.monotonic() - self._started, 1),
            "turns_finished": turns.exclude(state__in=[TurnState.QUEUED, TurnState.EXTRACTING]).count(),
            "turns_waiting": waiting,
            "facts_unindexed": facts.filter(embedding_model="").count(),
            "broker_messages": broker.message_count(url) if url.startswith("sqlite:") else None,
        }

    def wait_until_drained(self, timeout: float) -> float | None:
        """Seconds from now until no turn waits and every live fact is indexed; None on timeout."""
        began = time.monotonic()
        while time.monotonic() - began < timeout:
            now = self.sample()
            if not now["turns_waiting"] and not now["facts_unindexed"]:
                return round(time.monotonic() - began, 1)
            time.sleep(0.5)
        return None

    def sustained(self) -> float | None:
        """Turns finished per second over the stream's busiest stretch: first to last sample."""
        done = [(s["t"], s["turns_finished"]) for s in self.samples if s["turns_finished"]]
        if len(done) < 2 or done[-1][0] == done[0][0]:
            return None
        return round((done[-1][1] - done[0][1]) / (done[-1][0] - done[0][0]), 2)

    def summary(self) -> dict:
        if not self.samples:
            return {}
        return {
            "max_turns_waiting": max(s["turns_waiting"] for s in self.samples),
            "max_facts_unindexed": max(s["facts_unindexed"] for s in self.samples),
            "max_broker_messages": max((s["broker_messages"] or 0) for s in self.samples),
        }


def render(result: dict) -> str:
    fresh, posts, probes = result["freshness"], result["posts"], result["recall_probes"]
    pace = f"{result['rate']} turns/s" if result["rate"] else "idle (markers only)"
    return "\n".join(
        [
            f"{result['turns_posted']} turns posted at {pace} in {result['posting_seconds']} s "
            f"({result['posted_rate']} turns/s); worker processes {result['worker_concurrency']}",
            f"time until a told fact is recalled: p50 {fresh['p50_s']} s, p95 {fresh['p95_s']} s, "
            f"max {fresh['max_s']} s ({fresh['recalled']} of {fresh['markers']} markers; "
            f"never {fresh['never_recalled']})",
            f"sustained {result['sustained_turns_per_s']} turns/s; everything processed and indexed "
            f"{result['drained_after_last_post_s']} s after the last post",
            f"backlog: {result['backlog']}",
            f"posts: p50 {posts['p50_ms']} / p95 {posts['p95_ms']} / max {posts['max_ms']} ms {posts['statuses']}",
            f"recall probes: p50 {probes['p50_ms']} / p95 {probes['p95_ms']} / max {probes['max_ms']} ms "
            f"({probes['requests']} requests) {probes['statuses']}",
            f"worker restarts: {result['worker_restarts']}",
        ]
    )
