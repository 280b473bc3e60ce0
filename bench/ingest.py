"""bench_ingest: LoCoMo turns posted through the turn API at a set pace (or as fast as the API
takes them), then the wait until the worker has processed every one. What a backlog does to
the embedded broker, the worker and the API (docs/measurements.md, "A backlog of turns").
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from http.client import HTTPException

from bench.api.client import Connection
from bench.locomo_data import TurnSpec, conversation_turns
from bench.pipeline.replay import FINAL, user_id_for
from core.stats import percentile
from facts.models import MemoryUser, Turn

SLOW_SECONDS = 1.0  # the bound for any API request during a backlog


@dataclass
class Post:
    user: str
    spec: TurnSpec

    def body(self) -> dict:
        return {
            "session_id": self.spec.session_id,
            "turn_id": self.spec.dia_id,
            "user_input": self.spec.user_input,
            "assistant_response": self.spec.reply,
            "occurred_at": self.spec.when.isoformat(),
        }


def plan(conversations: list[tuple[str, dict]], turns: int) -> list[Post]:
    """The first `turns` turns of the conversations, in order; one memory user per conversation."""
    posts = (Post(user_id_for(name), spec) for name, conv in conversations for spec in conversation_turns(conv))
    return list(itertools.islice(posts, turns))


@dataclass
class Timings:
    """Every request's latency and outcome, from all client threads."""

    latencies: list[float] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    samples: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, seconds: float, outcome: str, detail: str = "") -> None:
        with self.lock:
            self.latencies.append(seconds)
            self.statuses[outcome] = self.statuses.get(outcome, 0) + 1
            if detail and len(self.samples) < 3:
                self.samples.append(detail[:300])

    def summary(self) -> dict:
        ms = sorted(x * 1000 for x in self.latencies)
        return {
            "requests": len(ms),
            "statuses": dict(sorted(self.statuses.items())),
            "p50_ms": _round(percentile(ms, 0.50)),
            "p95_ms": _round(percentile(ms, 0.95)),
            "p99_ms": _round(percentile(ms, 0.99)),
            "max_ms": _round(ms[-1] if ms else None),
            "slower_than_1s": sum(1 for x in self.latencies if x > SLOW_SECONDS),
            "error_samples": self.samples,
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def timed(conn: Connection, method: str, path: str, body: bytes | None, *, expect: int, timings: Timings) -> None:
    started = time.perf_counter()
    try:
        status, data, _ = conn.send(method, path, body)
    except (OSError, HTTPException) as exc:
        timings.record(time.perf_counter() - started, "no answer", f"{type(exc).__name__}: {exc}")
        return
    detail = "" if status == expect else f"{method} {path}: {status} {data.decode(errors='replace')}"
    timings.record(time.perf_counter() - started, str(status), detail)


def _post(conn: Connection, post: Post, timings: Timings) -> None:
    body = json.dumps(post.body()).encode()
    timed(conn, "POST", f"/users/{post.user}/turns", body, expect=202, timings=timings)


def post_paced(url: str, key: str, posts: list[Post], rate: float, timings: Timings, progress) -> None:
    """One client, post i sent at start + i / rate (or at once when behind schedule)."""
    conn = Connection(url, key)
    start = time.monotonic()
    for i, post in enumerate(posts):
        delay = start + i / rate - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        _post(conn, post, timings)
        progress(1)


def post_flat_out(url: str, key: str, posts: list[Post], clients: int, timings: Timings, progress) -> None:
    """`clients` threads, each sending the next turn as soon as its previous one was answered."""
    queue = iter(posts)
    lock = threading.Lock()

    def client() -> None:
        conn = Connection(url, key)
        while True:
            with lock:
                post = next(queue, None)
            if post is None:
                return
            _post(conn, post, timings)
            progress(1)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def states(users: list[MemoryUser]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for state in Turn.objects.filter(user__in=users).values_list("state", flat=True):
        counts[state] = counts.get(state, 0) + 1
    return dict(sorted(counts.items()))


def last_finished_after(users: list[MemoryUser], moment) -> float | None:
    """Seconds from `moment` (a datetime) to the last turn's finish; None when none finished."""
    latest = (
        Turn.objects.filter(user__in=users, state__in=FINAL, finished_at__isnull=False)
        .order_by("-finished_at")
        .values_list("finished_at", flat=True)
        .first()
    )
    return None if latest is None else round((latest - moment).total_seconds(), 1)
