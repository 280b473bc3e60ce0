"""One bench_api run against a service: check it answers, give the bench users their facts
through the API, wait for the recall index, time the first recall, then every
(route, concurrency) step, waiting for the worker to catch up after each step that writes."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.client import HTTPException

from django.core.management.base import CommandError
from tqdm import tqdm

from bench.api import report
from bench.api.client import Connection, run_step
from bench.api.workload import ROUTES, Call, Workload

POPULATE_CLIENTS = 4
MAX_RATE_LIMITED_RETRIES = 20
POLL_SECONDS = 0.5


@dataclass
class Options:
    users: int
    facts_per_user: int
    requests: int
    concurrency: list[int]
    routes: list[str]  # names from workload.ROUTE_NAMES, in that order
    settle_timeout: float
    keepalive: bool
    erase_users: bool  # erase the bench users afterwards (a server bench_api did not start)


@dataclass
class Target:
    url: str
    api_key: str
    server: str  # gunicorn | runserver | external
    restart: Callable[[], None] | None = None  # starts the web server afresh: only one bench_api started
    notes: list[str] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)  # every web server's, when bench_api started several

    @property
    def all_urls(self) -> list[str]:
        return self.urls or [self.url]


class ProgressStream:
    """tqdm redraws its bar after a carriage return; Django's OutputWrapper would end every
    redraw with a newline, printing one line per update."""

    def __init__(self, out):
        self.out = out

    def write(self, text: str) -> None:
        self.out.write(text, ending="")

    def flush(self) -> None:
        self.out.flush()


def run(options: Options, target: Target, stderr) -> dict:
    api = Connection(target.url, target.api_key)
    preflight(api, target.url)
    try:
        return _run(options, target, api, stderr)
    except (OSError, HTTPException) as exc:
        raise CommandError(
            f"The service at {target.url} stopped answering ({type(exc).__name__}: {exc}); its log says why "
            "(a server bench_api started logs into the temp folder it keeps after a failure)."
        ) from exc
    finally:
        api.close()


def _run(options: Options, target: Target, api: Connection, stderr) -> dict:
    load_start = os.getloadavg()
    bars = ProgressStream(stderr)
    work = Workload(options.users, options.facts_per_user)
    phases: dict[str, float] = {}
    with _timed(phases, "store_facts"):
        populate(target, work, bars)
    with _timed(phases, "wait_for_index"):
        wait_until_indexed(api, work.recall_users, options.settle_timeout, bars)
    if target.restart is not None:
        stderr.write("Starting the web server afresh for the first-request measurement ...")
        with _timed(phases, "restart_server"):
            target.restart()
    first = first_recall(target, work)
    with _timed(phases, "measure"):
        results = measure(target, work, options, api, bars)
    if options.erase_users:
        erase_bench_users(api, work, target)
    return report.assemble(
        target=target,
        options=options,
        results=results,
        first=first,
        load=(load_start, os.getloadavg()),
        extra={"phase_seconds": phases, "user_prefix": f"bench-{work.nonce}-"},
    )


@contextmanager
def _timed(phases: dict[str, float], name: str):
    started = time.monotonic()
    yield
    phases[name] = round(time.monotonic() - started, 1)


def preflight(api: Connection, url: str) -> None:
    """Fail early, saying what to do, when the URL or the key cannot work."""
    try:
        status, body, _ = api.json("GET", "/health")
    except (OSError, HTTPException) as exc:
        raise CommandError(
            f"Nothing answers at {url} ({type(exc).__name__}: {exc}). Start the service (make run) or correct --url."
        ) from exc
    if status not in (200, 503) or "database" not in body:
        raise CommandError(
            f"{url} answers, but not as this memory service (GET /api/v1/health gave {status}). "
            "Pass the service's root URL, e.g. http://127.0.0.1:8000."
        )
    status, body, _ = api.json("GET", "/metrics?window=1h")
    if status == 401:
        raise CommandError(
            f"The service refused the API key ({body.get('detail', status)}). Pass a key printed by "
            "create_tenant or make run with --api-key."
        )
    if status == 403:
        raise CommandError("The API key lacks the read scope; bench_api needs read and write (create_tenant --scopes).")
    if status not in (200, 429):
        raise CommandError(f"GET /api/v1/metrics answered {status}: {body.get('detail', '')}")


def populate(target: Target, work: Workload, stderr) -> None:
    """Store every bench user's facts through the API, as a client would."""
    calls = work.population()
    with tqdm(total=len(calls), desc="storing bench facts", unit="fact", file=stderr) as bar:
        send_all(target, calls, expect=201, progress=bar.update)


def send_all(target: Target, calls: list[Call], *, expect: int, progress: Callable[[int], None]) -> None:
    """POST every call from a few clients; wait out a 429 (its Retry-After), stop at any other failure."""
    failures: list[str] = []
    todo = iter(calls)
    lock = threading.Lock()

    def client() -> None:
        conn = Connection(target.url, target.api_key)
        while not failures:
            with lock:
                call = next(todo, None)
            if call is None:
                break
            problem = _post_patiently(conn, call, expect, target)
            if problem:
                failures.append(problem)
            progress(1)
        conn.close()

    threads = [threading.Thread(target=client, daemon=True) for _ in range(POPULATE_CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise CommandError(failures[0])


def _post_patiently(conn: Connection, call: Call, expect: int, target: Target) -> str | None:
    for _ in range(MAX_RATE_LIMITED_RETRIES):
        try:
            status, data, headers = conn.send("POST", call.path, call.body)
        except (OSError, HTTPException) as exc:
            return f"The service stopped answering while bench users were stored ({type(exc).__name__}: {exc})."
        if status == expect:
            return None
        if status != 429:
            return _refusal(status, data, call.path)
        if not target.notes:
            target.notes.append(
                "The service rate-limited the bench while storing its users: raise its MEMORY_RATE_LIMIT_* "
                "settings (e.g. 1000000/min) for a benchmark, or its figures are the limit's, not the server's."
            )
        time.sleep(float(headers.get("Retry-After", "1")))
    return (
        f"Still rate limited after {MAX_RATE_LIMITED_RETRIES} tries: raise the server's MEMORY_RATE_LIMIT_* settings."
    )


def _refusal(status: int, data: bytes, path: str) -> str:
    detail = data[:300].decode(errors="replace")
    if status == 403:
        return f"The API key lacks the write scope bench_api needs ({detail}); use a key with read and write."
    return f"POST /api/v1{path} answered {status}: {detail}"


def embedded_counts(api: Connection, users: list[str]) -> tuple[int, int]:
    """(live facts, of which indexed with a vector) over these users; the vector is written
    last by the index sync (recall/tasks.py), so a fact with one is searchable both ways."""
    total = embedded = 0
    for user in users:
        cursor = ""
        while True:
            status, body, _ = api.json("GET", f"/users/{user}/facts?limit=200{cursor}")
            if status == 404:
                break  # not created yet
            if status != 200:
                raise CommandError(f"Listing the bench user's facts answered {status}: {body.get('detail', '')}")
            items = body.get("items", [])
            total += len(items)
            embedded += sum(1 for item in items if item.get("embedding_model"))
            if not body.get("next_cursor"):
                break
            cursor = f"&cursor={body['next_cursor']}"
    return total, embedded


class Stall:
    """Notices when a polled state stops changing: a long backlog is fine while it moves."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.state: object = None
        self.changed_at = time.monotonic()

    def stuck(self, state: object) -> bool:
        if state != self.state:
            self.state, self.changed_at = state, time.monotonic()
        return time.monotonic() - self.changed_at > self.seconds


def wait_until_indexed(api: Connection, users: list[str], stall_seconds: float, stderr) -> None:
    stall = Stall(stall_seconds)
    with tqdm(total=None, desc="waiting for the recall index", unit="fact", file=stderr) as bar:
        while True:
            total, embedded = embedded_counts(api, users)
            bar.total = total
            bar.n = embedded
            bar.refresh()
            if total and embedded == total:
                return
            if stall.stuck((total, embedded)):
                raise CommandError(
                    f"The recall index holds {embedded} of {total} bench facts and gained none in "
                    f"{stall_seconds:.0f}s: is a Celery worker consuming the db and embed queues of this service? "
                    "(--settle-timeout waits longer)"
                )
            time.sleep(POLL_SECONDS)


def settle(api: Connection, users: list[str], stall_seconds: float) -> float | None:
    """Wait until the worker has no turn of this tenant in hand and every fact of `users` is
    indexed: the next step then measures the server, not the server beside a backlog.
    Seconds it took, or None when nothing moved for `stall_seconds`."""
    started = time.monotonic()
    stall = Stall(stall_seconds)
    while True:
        status, body, _ = api.json("GET", "/metrics?window=1h")
        backlog = body.get("extraction", {}).get("backlog_now", 0) if status == 200 else 0
        counts = embedded_counts(api, users)
        if not backlog and counts[0] == counts[1]:
            return round(time.monotonic() - started, 1)
        if stall.stuck((backlog, counts)):
            return None
        time.sleep(POLL_SECONDS)


def first_recall(target: Target, work: Workload) -> dict:
    """The first recall the server answers (after a fresh start when bench_api started it)."""
    conn = Connection(target.url, target.api_key)
    call = work.calls(ROUTES[0], 1, 1)[0]
    began = time.perf_counter()
    try:
        status, _, _ = conn.send("POST", call.path, call.body)
    except (OSError, HTTPException) as exc:
        raise CommandError(f"The first recall got no answer ({type(exc).__name__}: {exc}).") from exc
    finally:
        conn.close()
    ms = (time.perf_counter() - began) * 1000
    return {"ms": round(ms, 2), "status": status, "fresh_server": target.restart is not None}


def measure(target: Target, work: Workload, options: Options, api: Connection, stderr) -> dict:
    routes = [route for route in ROUTES if route.name in options.routes]
    total = len(routes) * len(options.concurrency) * options.requests
    results: dict[str, dict[str, dict]] = {}
    with tqdm(total=total, desc="bench", unit="req", file=stderr) as bar:
        for route in routes:
            if route.name == "recall_repeated":
                _warm_repeated(target, work)
            for concurrency in options.concurrency:
                bar.set_description(f"{route.name} x{concurrency}")
                calls = work.calls(route, options.requests, concurrency)
                step = run_step(
                    target.all_urls,
                    target.api_key,
                    calls,
                    method=route.method,
                    concurrency=concurrency,
                    expect=route.expect,
                    progress=bar.update,
                    keepalive=options.keepalive,
                )
                summary = step.summary()
                if route.writes:
                    bar.set_description(f"{route.name} x{concurrency}: worker catching up")
                    written = sorted({call.path.split("/")[2] for call in calls})
                    summary["worker_drain_seconds"] = settle(api, written, options.settle_timeout)
                results.setdefault(route.name, {})[str(concurrency)] = summary
    return results


def _warm_repeated(target: Target, work: Workload) -> None:
    """Send each repeated query over several fresh connections, so that every server process
    (each has its own embedding cache) has most likely seen it before it is timed."""
    for _ in range(8):
        conn = Connection(target.url, target.api_key)
        for call in work.warm_calls():
            conn.send("POST", call.path, call.body)
        conn.close()


def erase_bench_users(api: Connection, work: Workload, target: Target) -> None:
    """Erase what the run stored in the operator's tenant (needs the admin scope)."""
    for user in work.all_users():
        status, body, _ = api.json("DELETE", f"/users/{user}")
        if status == 403:
            target.notes.append(
                f"The key lacks the admin scope, so the bench users (ids starting bench-{work.nonce}-) remain in "
                "the tenant; erase them with manage.py erase_user, or use an admin key next time."
            )
            return
        if status not in (200, 404):
            target.notes.append(f"Erasing bench user {user} answered {status}: {body.get('detail', '')}")
