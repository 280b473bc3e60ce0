"""manage.py bench_import: what an import costs the people recalling meanwhile
(docs/measurements.md, "Import beside live recall")."""

from __future__ import annotations

import json
import random
import threading
import time
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from bench import import_windows, throwaway
from bench.api.client import Connection
from bench.locomo_data import load_conversations, session_time
from core.stats import percentile
from facts.models import ApiKey, Tenant

LOCOMO_DEV = Path(settings.BASE_DIR).parent / "shared" / "data" / "locomo-dev"
UNLIMITED = "1000000/min"
SERVER_ENV = {
    "MEMORY_RATE_LIMIT_READ": UNLIMITED,
    "MEMORY_RATE_LIMIT_WRITE": UNLIMITED,
    "MEMORY_RATE_LIMIT_RECALL": UNLIMITED,
    "OPENAI_API_KEY": "",  # the offline rules extractor: nothing leaves the machine
    "OPENAI_BASE_URL": "",
}
READER = "bench-reader"
WARM_UP_SECONDS = 20.0
WORDS = [
    "tea",
    "coffee",
    "hiking",
    "cello",
    "garden",
    "paris",
    "lisbon",
    "nurse",
    "dog",
    "sister",
    "piano",
    "bread",
    "running",
    "chess",
]


class Command(BaseCommand):
    help = (
        "Recall p50/p95 of --clients clients in quiet and importing windows taking turns (--alternate, the "
        "default) while a --turns-turn export (LoCoMo dev turns with their session times) is imported; with "
        "--alternate 0, for --seconds before the import (through POST /imports/turns) and then while it runs, "
        "with its time and turns a second (that pair measures drift as well: docs/measurements.md §22). "
        "Starts gunicorn and a Celery worker on a throwaway database."
    )

    def add_arguments(self, parser):
        parser.add_argument("--turns", type=int, default=2000, help="turns in the export (default 2000)")
        parser.add_argument("--clients", type=int, default=16, help="simultaneous recall clients (default 16)")
        parser.add_argument("--seconds", type=float, default=60, help="the baseline's length (default 60)")
        parser.add_argument(
            "--during-seconds",
            type=float,
            default=0,
            help="recall during the first this many seconds of the import, then stop (default 0: until it ends)",
        )
        parser.add_argument(
            "--alternate",
            type=float,
            default=30,
            help="quiet and importing windows of this many seconds taking turns (bench/import_windows.py; default "
            "30); 0: a phase before the import and one during it",
        )
        parser.add_argument("--pairs", type=int, default=4, help="with --alternate: pairs of windows (default 4)")
        parser.add_argument(
            "--preload",
            type=int,
            default=0,
            help="with --alternate: import this many of the turns first, with no one recalling (default 0)",
        )
        parser.add_argument("--json", dest="json_out", help="write the figures as JSON here")
        parser.add_argument("--keep", action="store_true", help="keep the temp folder")

    def handle(
        self, *args, turns, clients, seconds, during_seconds, alternate, pairs, preload, json_out, keep, **options
    ):
        if min(turns, clients, pairs) < 1 or seconds <= 0 or min(during_seconds, alternate) < 0:
            raise CommandError(
                "--turns, --clients, --pairs and --seconds must be positive, --during-seconds and --alternate "
                "not negative."
            )
        if workdir := throwaway.enter_rerun():
            result = self._run(workdir, turns, clients, seconds, during_seconds, (alternate, pairs, preload))
            self.stdout.write(json.dumps(result, indent=2))
            if json_out:
                Path(json_out).write_text(json.dumps(result, indent=2))
            return
        argv = ["--turns", str(turns), "--clients", str(clients), "--seconds", str(seconds)]
        argv += ["--during-seconds", str(during_seconds), "--alternate", str(alternate), "--pairs", str(pairs)]
        argv += ["--preload", str(preload)]
        argv += ["--json", str(Path(json_out).resolve())] if json_out else []
        throwaway.rerun(
            "bench_import",
            argv,
            what="The benchmark",
            keep=keep,
            stdout=self.stdout,
            stderr=self.stderr,
            env=SERVER_ENV,
        )

    def _alternate(self, url: str, key: str, tenant: Tenant, turns: int, clients: int, windows: tuple) -> dict:
        window_seconds, pairs, preload = windows
        batch_pk = import_windows.start(tenant, export_turns(turns))
        preloaded = None
        if preload:
            with tqdm(total=preload, desc="preload", unit="turn", file=self.stderr) as bar:
                preloaded = import_windows.preload(batch_pk, preload, bar.update)
        measured = import_windows.run(
            batch_pk, turns, lambda stop: timed_recalls(url, key, clients, stop), window_seconds, pairs
        )
        return {"clients": clients, "preloaded": preload, "preload_seconds": preloaded, **measured, **_settings()}

    def _run(
        self, workdir: Path, turns: int, clients: int, seconds: float, during_seconds: float, windows: tuple
    ) -> dict:
        call_command("collectstatic", interactive=False, verbosity=0)
        tenant = Tenant.objects.create(name="bench-import")
        _, key = ApiKey.objects.issue(tenant=tenant, name="bench_import", scopes=["read", "write"])
        with throwaway.service(workdir=workdir, concurrency=2, server="gunicorn") as stack:
            _give_reader_facts(stack.url, key)
            # Unmeasured: the first seconds of 16 clients ran slower than any later phase (new
            # connections, the servers' first queries, the reader's facts still being embedded), which
            # flattered every "during" phase that came after (an import of one turn: p95 0.63x).
            _recall_for(stack.url, key, clients, lambda started: time.monotonic() - started >= WARM_UP_SECONDS)
            if windows[0]:
                return self._alternate(stack.url, key, tenant, turns, clients, windows)
            baseline = _recall_for(stack.url, key, clients, lambda started: time.monotonic() - started >= seconds)
            export = export_turns(turns)
            connection = Connection(stack.url, key)
            status, started_import, _ = connection.json("POST", "/users/bench-importer/imports/turns", export)  # type: ignore[arg-type]
            if status != 202:
                raise CommandError(f"The import was refused ({status}): {started_import}")
            began = time.monotonic()
            progress = tqdm(total=turns, desc="import", unit="turn", file=self.stderr)
            state: dict[str, dict | None] = {"done": None, "last": None}

            def finished(started: float) -> bool:
                _status, now, _headers = Connection(stack.url, key).json(
                    "GET", f"/users/bench-importer/imports/{started_import['import_id']}"
                )
                progress.n = _handled(now)
                progress.refresh()
                state["last"] = now
                if now["state"] == "done":
                    state["done"] = now
                return now["state"] == "done" or 0 < during_seconds <= time.monotonic() - started

            during = _recall_for(stack.url, key, clients, finished, check_every=2.0)
            progress.close()
            took = time.monotonic() - began
        done: dict = state["done"] or state["last"] or {}
        return {
            "clients": clients,
            "baseline": import_windows.latency_summary(baseline),
            "during_import": import_windows.latency_summary(during),
            "p95_ratio": round(_p95(during) / _p95(baseline), 3) if baseline and during else None,
            "import": {
                "turns": turns,
                "finished": state["done"] is not None,
                "seconds": round(took, 1),
                "turns_handled": _handled(done) if done else 0,
                "turns_per_second": round((_handled(done) if done else 0) / took, 2),
                "added": done.get("added"),
                "withheld": done.get("withheld"),
                "refused": len(done.get("refused", [])),
            },
            **_settings(),
        }


def _settings() -> dict:
    return {
        "pace_setting": settings.MEMORY_IMPORT_TURNS_PER_SECOND,
        "yield_above": settings.MEMORY_IMPORT_YIELD_ABOVE,
        "busy_seconds": settings.MEMORY_IMPORT_BUSY_SECONDS,
    }


def _handled(report: dict) -> int:
    """Turns of an import's report that are through: added, withheld, already there or refused."""
    return report["added"] + report["withheld"] + report["already_there"] + len(report["refused"])


def _give_reader_facts(url: str, key: str) -> None:
    connection = Connection(url, key)
    for n in range(100):
        text = f"User mentioned {random.Random(n).choice(WORDS)} on day {n} of the trip."
        status, body, _ = connection.json("POST", f"/users/{READER}/facts", {"text": text})
        if status not in (200, 201):
            raise CommandError(f"Storing the reader's facts failed ({status}): {body}")
    for _ in range(120):  # the worker indexes them
        status, body, _ = connection.json("POST", f"/users/{READER}/recall", {"query": "trip", "k": 10})
        if status == 200 and len(body.get("items", [])) >= 10:
            return
        time.sleep(1)
    raise CommandError("The reader's facts were not recallable after 120 s; see the worker's log.")


def _recall_for(url: str, key: str, clients: int, stop, check_every: float = 0.5) -> list[float]:
    """Latencies (ms) of recalls by `clients` threads until stop(started) says so."""
    return [took for _began, took in timed_recalls(url, key, clients, stop, check_every)]


def timed_recalls(url: str, key: str, clients: int, stop, check_every: float = 0.5) -> list[tuple[float, float]]:
    """(monotonic start, latency ms) of each recall by `clients` threads until stop(started) says so."""
    timings: list[tuple[float, float]] = []
    lock, halt = threading.Lock(), threading.Event()

    def client(n: int) -> None:
        connection, rng = Connection(url, key), random.Random(n)
        asked = 0
        while not halt.is_set():
            # Every query is new (client and count in it): each recall embeds its query, before the
            # import and during it alike. Repeated queries were answered from the query cache more
            # and more often as a phase went on, which flattered the longer phase.
            asked += 1
            query = f"{rng.choice(WORDS)} {rng.choice(WORDS)} day {rng.randint(0, 99)} ask {n}-{asked}"
            began = time.perf_counter()
            status, _, _ = connection.json("POST", f"/users/{READER}/recall", {"query": query, "k": 10})
            took = (time.perf_counter() - began) * 1000
            if status == 200:
                with lock:
                    timings.append((time.monotonic() - took / 1000, took))

    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(clients)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    while not stop(started):
        time.sleep(check_every)
    halt.set()
    for thread in threads:
        thread.join(timeout=30)
    return timings


def export_turns(turns: int) -> list[dict]:
    """LoCoMo dev conversations as one person's history: speaker A's lines as the person's turns,
    speaker B's as the answers, each with its session's time; repeated with later times until
    there are `turns`."""
    lines = []
    for name, conversation in load_conversations(LOCOMO_DEV):
        for n in range(1, 40):
            session = conversation.get(f"session_{n}")
            if not session:
                continue
            when = session_time(conversation, n)
            for i in range(0, len(session) - 1, 2):
                lines.append((f"{name}-s{n}", when, session[i]["text"], session[i + 1]["text"]))
    export = []
    for number in range(turns):
        session, when, said, answer = lines[number % len(lines)]
        later = when + timedelta(days=365 * (number // len(lines)), seconds=number)
        export.append(
            {
                "session_id": f"{session}-{number // len(lines)}",
                "turn_id": f"t{number}",
                "user_input": said,
                "assistant_response": answer,
                "occurred_at": later.isoformat(),
            }
        )
    return export


def _p95(values: list[float]) -> float:
    return percentile(values, 0.95) or 0.0
