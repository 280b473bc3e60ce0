"""The drill's clients: LoCoMo turns posted at a steady pace (a client retries a turn, with the
same turn_id, until the API acknowledges it) and recalls at another, through the proxy. Every
request's time and outcome is kept, so that errors can be placed inside or outside a fault."""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from dataclasses import dataclass, field

TURN_GIVE_UP_SECONDS = 120.0
REQUEST_TIMEOUT = 10.0


@dataclass(frozen=True)
class TurnPost:
    user: str
    session_id: str
    turn_id: str
    text: str
    reply: str = ""
    marker: str = ""  # the unique word a marker turn states ("I use <marker>.")

    def body(self) -> dict:
        return {
            "session_id": self.session_id,
            "turn_id": self.turn_id,
            "user_input": self.text,
            "assistant_response": self.reply,
        }


@dataclass
class Event:
    t: float  # seconds since the stream started
    kind: str  # turn, recall, probe
    ok: bool
    outcome: str  # the HTTP status, or the exception's name
    ms: float = 0.0


class Api:
    def __init__(self, host: str, port: int, key: str) -> None:
        self.host, self.port, self.key = host, port, key

    def call(self, method: str, path: str, body: dict | None = None, timeout: float = REQUEST_TIMEOUT):
        """(status or exception name, parsed body or None); never raises for the network."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            data = json.dumps(body).encode() if body is not None else None
            headers = {"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"}
            conn.request(method, f"/api/v1{path}", body=data, headers=headers)
            response = conn.getresponse()
            raw = response.read()
            try:
                parsed = json.loads(raw or b"null")
            except ValueError:
                parsed = None
            return response.status, parsed
        except (OSError, http.client.HTTPException) as exc:
            return type(exc).__name__, None
        finally:
            conn.close()


def ok_status(outcome) -> bool:
    return isinstance(outcome, int) and outcome < 400


@dataclass
class Stream:
    api: Api
    plan: list[TurnPost]
    turn_rate: float
    recall_rate: float
    events: list[Event] = field(default_factory=list)
    acked: dict[tuple[str, str], float] = field(default_factory=dict)  # (user, turn_id) -> when
    given_up: list[TurnPost] = field(default_factory=list)
    shed_recalls: int = 0
    recall_sources: dict[str, int] = field(default_factory=dict)
    posted: int = 0
    in_flight: int = 0  # turns posted and not yet acknowledged or given up
    plan_exhausted: bool = False

    def __post_init__(self) -> None:
        self.t0 = time.monotonic()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._turn_slots = threading.BoundedSemaphore(8)
        self._recall_slots = threading.BoundedSemaphore(16)
        self._threads: list[threading.Thread] = []
        self._rng = random.Random(36)
        self._by_key = {(p.user, p.turn_id): p for p in self.plan}

    def now(self) -> float:
        return time.monotonic() - self.t0

    def record(self, kind: str, outcome, started: float) -> None:
        ms = (time.monotonic() - started) * 1000
        with self._lock:
            self.events.append(Event(self.now(), kind, ok_status(outcome), str(outcome), ms))

    def start(self) -> None:
        for target in (self._post_turns, self._recalls):
            thread = threading.Thread(target=target, daemon=True, name=target.__name__)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=TURN_GIVE_UP_SECONDS + 15)

    def stop_now(self) -> None:
        """Stop sending (teardown): the threads still waiting end with their requests' timeouts."""
        self._stop.set()

    def paced(self, rate: float):
        """Yield at `rate` per second until stopped (a late tick is not made up twice)."""
        next_at = time.monotonic()
        while not self._stop.is_set():
            yield
            next_at = max(next_at + 1.0 / rate, time.monotonic() - 1.0)
            self._stop.wait(max(0.0, next_at - time.monotonic()))

    # --- turns ----------------------------------------------------------------------------
    def _post_turns(self) -> None:
        posts = iter(self.plan)
        workers = []
        for _ in self.paced(self.turn_rate):
            post = next(posts, None)
            if post is None:
                self.plan_exhausted = True
                break
            self._turn_slots.acquire()
            with self._lock:
                self.in_flight += 1
            thread = threading.Thread(target=self._post_until_acked, args=(post,), daemon=True)
            thread.start()
            workers.append(thread)
            self.posted += 1
        for thread in workers:
            thread.join()

    def _post_until_acked(self, post: TurnPost) -> None:
        deadline = time.monotonic() + TURN_GIVE_UP_SECONDS
        try:
            while True:
                started = time.monotonic()
                outcome, _ = self.api.call("POST", f"/users/{post.user}/turns", post.body())
                self.record("turn", outcome, started)
                if outcome in (200, 202):
                    with self._lock:
                        self.acked[(post.user, post.turn_id)] = self.now()
                    return
                if time.monotonic() > deadline:
                    with self._lock:
                        self.given_up.append(post)
                    return
                time.sleep(0.5)  # the same turn_id again: the API stores it once
        finally:
            with self._lock:
                self.in_flight -= 1
            self._turn_slots.release()

    # --- recalls ----------------------------------------------------------------------------
    def _recalls(self) -> None:
        for _ in self.paced(self.recall_rate):
            with self._lock:
                known = list(self.acked)
            if not known:
                continue
            if not self._recall_slots.acquire(blocking=False):
                self.shed_recalls += 1  # every client thread is waiting: the API is stuck
                continue
            user, turn_id = self._rng.choice(known)
            query = self._query_for(user, turn_id)
            threading.Thread(target=self._recall, args=(user, query), daemon=True).start()

    def _query_for(self, user: str, turn_id: str) -> str:
        post = self._by_key.get((user, turn_id))
        words = (post.text if post else "what did I say").split()
        start = self._rng.randrange(max(1, len(words) - 4))
        return " ".join(words[start : start + 5])

    def _recall(self, user: str, query: str) -> None:
        try:
            started = time.monotonic()
            outcome, _ = self.api.call("POST", f"/users/{user}/recall", {"query": query, "k": 10})
            self.record("recall", outcome, started)
        finally:
            self._recall_slots.release()

    # --- reading the record -------------------------------------------------------------------
    def errors_between(self, start: float, end: float) -> dict[str, int]:
        with self._lock:
            bad = [e for e in self.events if not e.ok and start <= e.t <= end]
        counts: dict[str, int] = {}
        for e in bad:
            counts[e.kind] = counts.get(e.kind, 0) + 1
        return counts

    def acked_before(self, t: float) -> list[tuple[str, str]]:
        with self._lock:
            return [key for key, when in self.acked.items() if when <= t]

    def rates(self, seconds: float) -> dict:
        """What the clients achieved while streaming: requests answered per second, latencies."""
        out: dict = {}
        with self._lock:
            events = list(self.events)
        for kind in ("turn", "recall"):
            ms = sorted(e.ms for e in events if e.kind == kind and e.ok)
            out[f"{kind}s_ok_per_s"] = round(len(ms) / max(seconds, 1e-9), 1)
            out[f"{kind}_p50_ms"] = round(ms[len(ms) // 2]) if ms else None
            out[f"{kind}_p95_ms"] = round(ms[int(len(ms) * 0.95)]) if ms else None
        return out

    def served_again(self, after: float) -> float | None:
        """Seconds from `after` until a turn and a recall had both been answered (None: not yet)."""
        with self._lock:
            firsts = [
                min((e.t for e in self.events if e.kind == kind and e.ok and e.t > after), default=None)
                for kind in ("turn", "recall")
            ]
        return None if None in firsts else max(t for t in firsts if t is not None) - after

    def posting(self) -> bool:
        """Turns still to be answered: the plan has more, or posts wait for their answer. A short
        plan can end before a fault does; then no turn can be answered after it."""
        with self._lock:
            return not self.plan_exhausted or self.in_flight > 0

    def last_ok(self, kind: str) -> float:
        with self._lock:
            return max((e.t for e in self.events if e.kind == kind and e.ok), default=-1.0)
