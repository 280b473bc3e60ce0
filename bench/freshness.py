"""bench_freshness: how long until a fact just told is recalled, while a stream of turns arrives.

LoCoMo turns are posted through `POST /users/{id}/turns` at a fixed rate, the conversations
interleaved (one memory user each). A loopback extractor answers each turn with LoCoMo's own
observations for it (bench/pipeline/replay_llm.py). Every N turns a marker turn tells one
user a new locker code ("Quick note: my locker code is KX0007QZ."), which the extractor
answers with the fact "User's locker code is KX0007QZ."; a probe then asks `POST /recall`
"what is my locker code KX0007QZ" every PROBE_SECONDS until that fact is in the top 10. The
time from the marker's post to that answer is what a user feels: how fresh memory is.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.client import HTTPException

from bench.api.client import Connection
from bench.ingest import Post, Timings
from bench.locomo_data import TurnSpec, conversation_turns
from bench.pipeline.replay import user_id_for
from bench.pipeline.replay_llm import ReplayExtractor
from bench.scripted_llm import Reply, ScriptedLLM
from core.stats import rounded

PROBE_SECONDS = 0.1  # the prober's pace: one recall per 0.1 s at most, whatever is outstanding
MARKER = "Quick note: my locker code is {code}."
_MARKER = re.compile(r"Quick note: my locker code is (KX\d{4}QZ)\.")


def code_of(n: int) -> str:
    return f"KX{n:04d}QZ"


def marker_fact(code: str) -> str:
    return f"User's locker code is {code}."


@dataclass
class Marker:
    n: int
    post: Post
    posted_at: float = 0.0
    found_after: float | None = None  # seconds from the post to the fact in the top 10


def stream(conversations: list[tuple[str, dict]], turns: int, every: int) -> tuple[list[Post], list[Marker]]:
    """`turns` turns of the conversations interleaved (round robin), and after every `every`-th
    one a marker turn for the user of that turn, in the same session."""
    queues = [[Post(user_id_for(name), spec) for spec in conversation_turns(conv)] for name, conv in conversations]
    posts: list[Post] = []
    markers: list[Marker] = []
    told = 0
    while told < turns and any(queues):
        for queue in queues:
            if not queue or told >= turns:
                continue
            post = queue.pop(0)
            posts.append(post)
            told += 1
            if every and told % every == 0:
                marker = _marker_post(post, len(markers) + 1)
                markers.append(marker)
                posts.append(marker.post)
    return posts, markers


def _marker_post(after: Post, n: int) -> Marker:
    spec = after.spec
    told = TurnSpec(
        dia_id=f"marker-{n}",
        session_id=spec.session_id,
        user_input=MARKER.format(code=code_of(n)),
        reply="Got it, I will remember that.",
        when=spec.when,
    )
    return Marker(n, Post(after.user, told))


class FreshnessExtractor(ReplayExtractor):
    """The replay extractor, plus the marker fact for every marker turn it is shown."""

    def answer(self, request: dict) -> str:
        reply = json.loads(super().answer(request))
        prompt = "\n".join(str(m.get("content", "")) for m in request.get("messages", []) if m.get("role") == "user")
        for code in dict.fromkeys(_MARKER.findall(prompt)):
            reply["add"].append(
                {"text": marker_fact(code), "key": f"locker_{code}", "category": "other", "entities": []}
            )
        return json.dumps(reply)


def extractor_server(extractor: FreshnessExtractor) -> ScriptedLLM:
    return ScriptedLLM(lambda request: Reply.text(extractor.answer(request)))


@dataclass
class Probes:
    """One prober that asks recall for every marker told and not yet found, in turn, at most
    one request per PROBE_SECONDS in all: a stream of probes must not become the load it
    measures. With n markers outstanding each is asked about every n x PROBE_SECONDS."""

    url: str
    key: str
    timeout: float
    timings: Timings = field(default_factory=Timings)
    outstanding: list[Marker] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    done: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def start(self, marker: Marker) -> None:
        with self.lock:
            self.outstanding.append(marker)

    def wait_for(self, marker: Marker) -> None:
        while marker in self.outstanding:
            time.sleep(PROBE_SECONDS / 2)

    def _run(self) -> None:
        conn = Connection(self.url, self.key)
        turn = 0
        while not (self.done.is_set() and not self.outstanding):
            with self.lock:
                self.outstanding = [m for m in self.outstanding if time.monotonic() - m.posted_at < self.timeout]
                marker = self.outstanding[turn % len(self.outstanding)] if self.outstanding else None
            turn += 1
            began = time.monotonic()
            if marker is not None and self._found(conn, marker):
                marker.found_after = time.monotonic() - marker.posted_at
                with self.lock:
                    self.outstanding.remove(marker)
            time.sleep(max(0.0, PROBE_SECONDS - (time.monotonic() - began)))

    def _found(self, conn: Connection, marker: Marker) -> bool:
        code = code_of(marker.n)
        body = json.dumps({"query": f"what is my locker code {code}", "k": 10}).encode()
        started = time.perf_counter()
        try:
            try:
                status, data, _ = conn.send("POST", f"/users/{marker.post.user}/recall", body)
            except (ConnectionError, HTTPException):
                # gunicorn closes a keep-alive connection idle for 5 s: one more try, on a new one.
                started = time.perf_counter()
                status, data, _ = conn.send("POST", f"/users/{marker.post.user}/recall", body)
        except (OSError, HTTPException) as exc:
            self.timings.record(time.perf_counter() - started, "no answer", str(exc))
            return False
        self.timings.record(time.perf_counter() - started, str(status))
        return status == 200 and code.encode() in data

    def join(self) -> None:
        """Wait until every marker is found or timed out."""
        self.done.set()
        self.thread.join()


def post_stream(
    url: str, key: str, posts: list[Post], markers: list[Marker], rate: float, probes: Probes, sent: Timings, progress
) -> float:
    """Post each turn at start + i / rate from one client; start a probe after each marker.
    Returns the seconds the posting took."""
    conn = Connection(url, key)
    by_turn = {m.post.spec.dia_id: m for m in markers}
    start = time.monotonic()
    for i, post in enumerate(posts):
        delay = start + i / rate - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        began = time.perf_counter()
        try:
            status, data, _ = conn.send("POST", f"/users/{post.user}/turns", json.dumps(post.body()).encode())
            sent.record(time.perf_counter() - began, str(status), "" if status == 202 else data.decode()[:200])
        except (OSError, HTTPException) as exc:
            sent.record(time.perf_counter() - began, "no answer", str(exc))
        if marker := by_turn.get(post.spec.dia_id):
            marker.posted_at = time.monotonic()
            probes.start(marker)
        progress(1)
    return time.monotonic() - start


def post_idle(url: str, key: str, markers: list[Marker], gap: float, probes: Probes, sent: Timings, progress) -> float:
    """Markers only, one at a time: each waits until the previous one was recalled, then `gap` s."""
    conn = Connection(url, key)
    start = time.monotonic()
    for marker in markers:
        began = time.perf_counter()
        status, data, _ = conn.send("POST", f"/users/{marker.post.user}/turns", json.dumps(marker.post.body()).encode())
        sent.record(time.perf_counter() - began, str(status), "" if status == 202 else data.decode()[:200])
        marker.posted_at = time.monotonic()
        probes.start(marker)
        probes.wait_for(marker)
        progress(1)
        time.sleep(gap)
    return time.monotonic() - start


def freshness(markers: list[Marker]) -> dict:
    found = [m.found_after for m in markers if m.found_after is not None]
    return {
        "markers": len(markers),
        "recalled": len(found),
        "never_recalled": len(markers) - len(found),
        "p50_s": rounded(found, 0.50, 2),
        "p95_s": rounded(found, 0.95, 2),
        "max_s": round(max(found), 2) if found else None,
    }
