"""Benchmark the extraction pipeline: N turns through a real Celery worker and an instant fake LLM.

It never touches your database: it re-runs itself inside the throwaway stack
(bench/throwaway.py: a temp folder with the SQLite file and the embedded broker),
starts the scripted LLM (bench/scripted_llm.py, answering at once with the
offline rules applied to the prompt) and a worker on every queue, as `make run`
starts it, submits the turns, and waits for every one to finish.

Reported: turns/s (first turn stored -> last turn finished) and, per turn,
the overhead excluding the LLM call (the three tasks' processing time minus
the time inside the HTTP call to the model) and the queue wait.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Max
from tqdm import tqdm

from bench import throwaway
from bench.scripted_llm import ScriptedLLM, rules_responder
from core.stats import rounded
from facts.models import Fact, Tenant, Turn, TurnState
from facts.services import memory_user_get_or_create
from facts.services.turns import turn_post

CITIES = ["Lisbon", "Oslo", "Kyoto", "Porto", "Berlin", "Lima", "Accra", "Hanoi", "Quito", "Perth"]
TOOLS = ["Neovim", "Emacs", "PostgreSQL", "Django", "Rust", "Go", "Kotlin", "Terraform", "Redis", "Figma"]
THINGS = ["jazz", "hiking", "green tea", "chess", "sushi", "cycling", "sci-fi novels", "board games", "opera"]
TEMPLATES = [
    "I live in {city} and I use {tool}.",
    "I really like {thing}. I use {tool} every day.",
    "I moved to {city} last year and I work at {company}.",
    "I'm allergic to {allergen}, and I prefer {thing}.",
    "I don't like {thing}. I mostly use {tool}.",
]
ALLERGENS = ["peanuts", "shellfish", "pollen", "penicillin", "latex"]


class Command(BaseCommand):
    help = (
        "Push N turns through a Celery worker with an instant fake LLM, in a throwaway workspace, and report "
        "turns/s and the p50/p95 per-turn overhead excluding the LLM call."
    )

    def add_arguments(self, parser):
        parser.add_argument("--turns", type=int, default=1000)
        parser.add_argument("--users", type=int, default=50)
        parser.add_argument("--concurrency", type=int, default=2, help="worker processes (default 2)")
        parser.add_argument(
            "--broker",
            choices=["embedded", "redis"],
            default="embedded",
            help="embedded (the default SQLite-file broker) or redis (starts a private redis-server)",
        )
        parser.add_argument("--json", dest="json_out", help="also write the results to this JSON file")
        parser.add_argument("--keep", action="store_true", help="keep the temp workspace (logs, database)")

    def handle(self, *args, **opts):
        if opts["turns"] < 1 or opts["users"] < 1 or opts["concurrency"] < 1:
            raise CommandError("--turns, --users and --concurrency must be at least 1.")
        if workdir := throwaway.enter_rerun():
            return self._drive(opts, workdir)
        return self._rerun(opts)

    # --- parent: the throwaway stack ------------------------------------------------------------

    def _rerun(self, opts) -> None:
        argv = ["--turns", str(opts["turns"]), "--users", str(opts["users"])]
        argv += ["--concurrency", str(opts["concurrency"]), "--broker", opts["broker"]]
        if opts["json_out"]:
            argv += ["--json", str(Path(opts["json_out"]).resolve())]
        redis, env = None, {"DEBUG": "off"}  # as in production: no per-query debug bookkeeping
        try:
            if opts["broker"] == "redis":
                redis, url = _start_redis()
                env.update({"CELERY_BROKER_URL": url, throwaway.OWN_BROKER: url})
            throwaway.rerun(
                "bench_extraction",
                argv,
                what="The benchmark",
                keep=opts["keep"],
                stdout=self.stdout,
                stderr=self.stderr,
                env=env,
            )
        finally:
            if redis is not None:
                throwaway.stop(redis)

    # --- driver: inside the throwaway stack -----------------------------------------------------

    def _drive(self, opts, workdir: Path) -> None:
        llm = ScriptedLLM(rules_responder).start()
        env = {**os.environ, "OPENAI_API_KEY": "bench", "OPENAI_BASE_URL": llm.url}
        worker = throwaway.Worker(throwaway.worker_argv(opts["concurrency"]), env, workdir / "worker.log")
        try:
            # Warm-up (not measured): worker start-up, imports and the first connections in each pool process.
            warm = Tenant.objects.create(name="bench-warm-up")
            warm_user = memory_user_get_or_create(tenant=warm, user_id="warm-up")
            for i in range(2 * opts["concurrency"]):
                self._submit(warm_user, i)
            self._wait(warm, 2 * opts["concurrency"], worker, "warm-up turns finished")

            tenant = Tenant.objects.create(name="bench")
            users = [memory_user_get_or_create(tenant=tenant, user_id=f"bench-{i}") for i in range(opts["users"])]
            n = opts["turns"]
            started = time.time()
            with tqdm(total=n, desc="turns submitted", unit="turn", leave=False) as bar:
                for i in range(n):
                    self._submit(users[i % len(users)], i)
                    bar.update()
            submitted = time.time()
            self._wait(tenant, n, worker, "turns finished")
            results = self._results(tenant, n, started, submitted, opts)
        finally:
            worker.stop()
            llm.stop()
        self._report(results)
        if opts["json_out"]:
            Path(opts["json_out"]).write_text(json.dumps(results, indent=2))

    @staticmethod
    def _wait(tenant, n: int, worker: throwaway.Worker, label: str) -> None:
        pending = Turn.objects.filter(tenant=tenant, state__in=[TurnState.QUEUED, TurnState.EXTRACTING])
        with tqdm(total=n, desc=label, unit="turn") as bar:
            done, last_progress, last_done = 0, time.monotonic(), -1
            while done < n:
                if worker.restarts:
                    raise CommandError(f"The worker died and was restarted; see {worker.log_path}.")
                done = n - pending.count()
                bar.update(done - bar.n)
                if done != last_done:
                    last_done, last_progress = done, time.monotonic()
                elif time.monotonic() - last_progress > 180:
                    raise CommandError(f"No progress for 3 minutes; see {worker.log_path}.")
                time.sleep(0.1)

    @staticmethod
    def _submit(user, i: int) -> None:
        text = TEMPLATES[i % len(TEMPLATES)].format(
            city=CITIES[i % len(CITIES)],
            tool=TOOLS[(i // 3) % len(TOOLS)],
            thing=THINGS[(i // 7) % len(THINGS)],
            company=f"Company{i % 13}",
            allergen=ALLERGENS[i % len(ALLERGENS)],
        )
        turn_post(
            tenant=user.tenant,
            user_id=user.external_id,
            session_id=f"s{i // 20}",
            turn_id=f"t{i}",
            user_input=text,
            assistant_response="Noted, thanks for telling me.",
        )

    @staticmethod
    def _results(tenant, n: int, started: float, submitted: float, opts) -> dict:
        rows = list(Turn.objects.filter(tenant=tenant).values("state", "processing_ms", "llm_ms", "queue_wait_ms"))
        finished = Turn.objects.filter(tenant=tenant).aggregate(last=Max("finished_at"))["last"].timestamp()
        done = [r for r in rows if r["state"] == TurnState.DONE]
        overhead = [
            r["processing_ms"] - r["llm_ms"] for r in done if r["processing_ms"] is not None and r["llm_ms"] is not None
        ]
        waits = [r["queue_wait_ms"] for r in done if r["queue_wait_ms"] is not None]
        llm = [r["llm_ms"] for r in done if r["llm_ms"] is not None]
        elapsed = finished - started
        return {
            "turns": n,
            "done": len(done),
            "failed": sum(r["state"] == TurnState.FAILED for r in rows),
            "skipped": sum(r["state"] == TurnState.SKIPPED for r in rows),
            "facts_live": Fact.objects.filter(tenant=tenant).live().count(),
            "broker": opts["broker"],
            "concurrency": opts["concurrency"],
            "cpus": os.cpu_count(),
            "submit_s": round(submitted - started, 2),
            "elapsed_s": round(elapsed, 2),
            "turns_per_s": round(n / elapsed, 2) if elapsed > 0 else None,
            "overhead_ms": {"p50": rounded(overhead, 0.5, 2), "p95": rounded(overhead, 0.95, 2)},
            "queue_wait_ms": {"p50": rounded(waits, 0.5, 2), "p95": rounded(waits, 0.95, 2)},
            "llm_call_ms": {"p50": rounded(llm, 0.5, 2), "p95": rounded(llm, 0.95, 2)},
        }

    def _report(self, r: dict) -> None:
        self.stdout.write("")
        self.stdout.write(
            f"turns {r['turns']}: done {r['done']}, failed {r['failed']}, skipped {r['skipped']}; "
            f"{r['facts_live']} live facts ({r['broker']} broker, {r['concurrency']} worker processes, "
            f"{r['cpus']} CPUs)"
        )
        self.stdout.write(
            f"throughput        {r['turns_per_s']} turns/s ({r['elapsed_s']} s; submitting took {r['submit_s']} s)"
        )
        for label, key in (
            ("overhead (no LLM)", "overhead_ms"),
            ("queue wait", "queue_wait_ms"),
            ("fake LLM call", "llm_call_ms"),
        ):
            self.stdout.write(f"{label:<18}p50 {r[key]['p50']} ms, p95 {r[key]['p95']} ms")
        if r["failed"]:
            self.stdout.write(self.style.WARNING(f"{r['failed']} turns failed: see their last_error."))


def _start_redis() -> tuple[subprocess.Popen, str]:
    """A private redis-server on a free loopback port, keeping nothing on disk."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise CommandError("redis-server not found: install it (bash scripts/system-deps.sh) or use --broker embedded.")
    port = throwaway.free_port()
    argv = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.05)
    throwaway.stop(proc)
    raise CommandError("redis-server did not start within 10 s.")
