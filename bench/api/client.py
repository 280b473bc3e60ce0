"""HTTP for bench_api: one persistent connection per simulated client (http.client keeps it
alive between requests, as a real client's pool would), and the timed load steps."""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.client import HTTPConnection, HTTPException, HTTPSConnection
from urllib.parse import urlsplit

from bench.api.workload import Call
from core.stats import percentile

API_PREFIX = "/api/v1"
TIMEOUT_SECONDS = 60.0
ERROR_SAMPLES = 3


def api_base(url: str) -> str:
    """The service's root from what the operator typed (`http://host:8000`, with or without /api/v1)."""
    url = url.strip().rstrip("/")
    return url.removesuffix(API_PREFIX)


class Connection:
    """One keep-alive connection to the service, authenticated with a bearer key."""

    def __init__(self, base_url: str, api_key: str, timeout: float = TIMEOUT_SECONDS):
        parts = urlsplit(base_url)
        kind = HTTPSConnection if parts.scheme == "https" else HTTPConnection
        self._conn = kind(parts.hostname or "", parts.port, timeout=timeout)
        self._prefix = parts.path.rstrip("/") + API_PREFIX
        self._headers = {"Authorization": f"Bearer {api_key}", "Content-Type": "application/json"}

    def connect(self) -> None:
        self._conn.connect()

    def send(self, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes, dict[str, str]]:
        """(status, body, headers); raises OSError or HTTPException when the exchange fails."""
        try:
            self._conn.request(method, self._prefix + path, body=body, headers=self._headers)
            response = self._conn.getresponse()
            data = response.read()
        except (OSError, HTTPException):
            # The next request opens a fresh connection instead of reusing a broken one.
            self._conn.close()
            raise
        return response.status, data, dict(response.getheaders())

    def json(self, method: str, path: str, payload: dict | None = None) -> tuple[int, dict, dict[str, str]]:
        body = json.dumps(payload).encode() if payload is not None else None
        try:
            status, data, headers = self.send(method, path, body)
        except (ConnectionError, HTTPException):
            # The server closes a keep-alive connection left idle (gunicorn after 5 s); these
            # bookkeeping requests are not timed, so one more try on a new connection is fair.
            status, data, headers = self.send(method, path, body)
        try:
            parsed = json.loads(data) if data else {}
        except ValueError:
            parsed = {"detail": data[:200].decode(errors="replace")}
        return status, parsed if isinstance(parsed, dict) else {"items": parsed}, headers

    def close(self) -> None:
        self._conn.close()


@dataclass
class Step:
    """What one (route, concurrency) step measured."""

    expect: int
    seconds: float = 0.0
    ok_ms: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)  # status code -> count; 0 = no answer
    samples: list[str] = field(default_factory=list)

    def note(self, status: int, ms: float, detail: bytes | str) -> None:
        self.statuses[status] += 1
        if status == self.expect:
            self.ok_ms.append(ms)
        elif len(self.samples) < ERROR_SAMPLES:
            text = detail.decode(errors="replace") if isinstance(detail, bytes) else detail
            self.samples.append(f"{status or 'no answer'}: {text[:200]}")

    def summary(self) -> dict:
        requests = sum(self.statuses.values())
        ok = len(self.ok_ms)

        def ms(q: float) -> float | None:
            value = percentile(self.ok_ms, q)
            return round(value, 2) if value is not None else None

        return {
            "requests": requests,
            "ok": ok,
            "errors": requests - ok,
            "rate_limited": self.statuses.get(429, 0),
            "seconds": round(self.seconds, 3),
            "req_per_s": round(ok / self.seconds, 1) if self.seconds else None,
            "p50_ms": ms(0.50),
            "p95_ms": ms(0.95),
            "p99_ms": ms(0.99),
            "statuses": {str(code): n for code, n in sorted(self.statuses.items())},
            "error_samples": self.samples,
        }


def run_step(
    base_urls: str | list[str],
    api_key: str,
    calls: list[Call],
    *,
    method: str,
    concurrency: int,
    expect: int,
    progress: Callable[[int], None],
    keepalive: bool = True,
) -> Step:
    """Send `calls` from `concurrency` clients at once, each taking the next call as soon as
    it has its answer; time each request and the whole step (first start to last answer).
    Without keepalive each request opens its own connection, and its time includes that.
    With several servers (hosts sharing one database) the clients take turns over them."""
    urls = [base_urls] if isinstance(base_urls, str) else base_urls
    clients = [Connection(urls[n % len(urls)], api_key) for n in range(concurrency)]
    if keepalive:
        for client in clients:
            client.connect()  # connecting once is not part of any request's time
    answers: list[list[tuple[int, float, bytes | str]]] = [[] for _ in clients]
    finished = [0.0] * concurrency
    next_call = itertools.count()  # next() on it is atomic under the GIL: each call is taken once
    start = threading.Barrier(concurrency + 1)

    def client_loop(n: int) -> None:
        start.wait()
        while (i := next(next_call)) < len(calls):
            began = time.perf_counter()
            try:
                status, data, _ = clients[n].send(method, calls[i].path, calls[i].body)
            except (OSError, HTTPException) as exc:
                status, data = 0, f"{type(exc).__name__}: {exc}".encode()
            if not keepalive:
                clients[n].close()  # http.client connects again on the next request
            answers[n].append((status, (time.perf_counter() - began) * 1000, data))
        finished[n] = time.perf_counter()

    threads = [threading.Thread(target=client_loop, args=(n,), daemon=True) for n in range(concurrency)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    _report_progress(threads, answers, progress)
    step = Step(expect=expect, seconds=max(finished) - began)
    for status, ms, data in itertools.chain.from_iterable(answers):
        step.note(status, ms, data if status != expect else b"")
    for client in clients:
        client.close()
    return step


def _report_progress(threads: list[threading.Thread], answers: list[list], progress: Callable[[int], None]) -> None:
    """Update the progress bar from this thread, so the clients never wait on its lock."""
    shown = 0
    while alive := [thread for thread in threads if thread.is_alive()]:
        alive[0].join(timeout=0.2)
        done = sum(len(a) for a in answers)
        progress(done - shown)
        shown = done
    progress(sum(len(a) for a in answers) - shown)
