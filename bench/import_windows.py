"""bench_import --alternate: quiet and importing windows taking turns while the clients recall,
so what drifts over a run (a warming server, a growing recall log) falls on both sides alike.

A phase before and a phase during, one after the other, measured the drift as much as the
import: an import that posted one turn in three minutes still read p95 0.63x "during"
(docs/measurements.md §22). Here the import's steps (importer.services.import_step, the code
the worker's task runs) are taken by this process, and only in importing windows, each step
waiting what it says before the next; every recall is filed under the window it started in.
The turns it posts are extracted and indexed by the stack's worker, as any import's, and that
work outlasts the window that posted them (at full pace a backlog of MEMORY_IMPORT_MAX_WAITING
turns): until no imported turn waits and the index outbox is empty, a quiet window is
"draining", and its recalls count on neither side.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable

from django.db import connection

from core.stats import percentile, rounded
from facts.models import Tenant, Turn
from importer.services import import_start, import_step
from recall.models import PendingIndex

IMPORTER = "bench-importer"


def importing(window_seconds: float, began: float, at: float) -> bool:
    """Odd windows import, even ones are quiet: the run starts quiet."""
    return int((at - began) // window_seconds) % 2 == 1


class StepsInWindows:
    """Takes an import's steps while the window imports; stops when told or when it is done."""

    def __init__(self, batch_pk: int, window_seconds: float, began: float) -> None:
        self.batch_pk, self.window_seconds, self.began = batch_pk, window_seconds, began
        self.posted, self.steps, self.done = 0, 0, False
        self.draining: list[tuple[float, float]] = []  # (from, until): a quiet window's first seconds
        self._halt = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._halt.set()
        self._thread.join(timeout=60)

    def _run(self) -> None:
        try:
            while not self._halt.is_set() and not self.done:
                if not importing(self.window_seconds, self.began, time.monotonic()):
                    self._drain()
                    continue
                step = import_step(self.batch_pk)
                self.posted, self.steps = self.posted + step.posted, self.steps + 1
                self.done = step.batch is None or step.batch.state == "done"
                self._halt.wait(step.wait)
        finally:
            connection.close()

    def _drain(self) -> None:
        """From now until the import's work is done, or the quiet window ends: draining."""
        began = time.monotonic()
        while not self._halt.is_set() and not importing(self.window_seconds, self.began, time.monotonic()):
            if not _import_work_left():
                break
            self._halt.wait(0.2)
        self.draining.append((began, time.monotonic()))
        while not self._halt.is_set() and not importing(self.window_seconds, self.began, time.monotonic()):
            self._halt.wait(0.2)

    def is_draining(self, at: float) -> bool:
        return any(start <= at < end for start, end in self.draining)


def _import_work_left() -> bool:
    waiting = Turn.objects.filter(user__external_id=IMPORTER).waiting().exists()
    return waiting or PendingIndex.objects.exists()


def preload(batch_pk: int, turns: int, progress: Callable[[int], object]) -> float:
    """Post the import's first `turns` turns at its own pace with no one recalling and wait until
    they are extracted and indexed: the windows then measure an import well under way, whose
    person has thousands of facts to compare each new one with. Returns the seconds it took."""
    began, posted = time.monotonic(), 0
    while posted < turns:
        step = import_step(batch_pk, turns=min(turns - posted, 20))
        posted += step.posted
        progress(step.posted)
        if step.batch is None or step.batch.state == "done":
            break
        time.sleep(step.wait if step.held_back else 0.2)
    while _import_work_left():
        time.sleep(0.5)
    return round(time.monotonic() - began, 1)


def start(tenant: Tenant, export: list[dict]) -> int:
    text = "\n".join(json.dumps(turn) for turn in export)
    batch, _ = import_start(tenant=tenant, user_id=IMPORTER, kind="jsonl", text=text)
    assert batch is not None
    return batch.pk


def run(batch_pk: int, turns: int, recalls: Callable, window_seconds: float, pairs: int) -> dict:
    """`recalls(stop)` runs the clients until stop(started) and returns (start, ms) pairs."""
    span = 2 * pairs * window_seconds
    began = time.monotonic()
    steps = StepsInWindows(batch_pk, window_seconds, began)
    steps.start()
    try:
        timed = recalls(lambda _started: time.monotonic() - began >= span)
    finally:
        steps.stop()
    during = [ms for at, ms in timed if importing(window_seconds, began, at)]
    quiet = [ms for at, ms in timed if not importing(window_seconds, began, at) and not steps.is_draining(at)]
    drained = [end - start for start, end in steps.draining]
    p95_quiet, p95_during = percentile(quiet, 0.95), percentile(during, 0.95)
    return {
        "method": f"{pairs} pairs of {window_seconds:.0f} s windows, quiet then importing",
        "quiet": latency_summary(quiet),
        "importing": latency_summary(during),
        "p95_ratio": round(p95_during / p95_quiet, 3) if p95_quiet and p95_during else None,
        "left_out_while_draining": len(timed) - len(quiet) - len(during),
        "draining_seconds": [round(seconds, 1) for seconds in drained],
        "import": {"turns": turns, "posted": steps.posted, "steps": steps.steps, "finished": steps.done},
    }


def latency_summary(values: list[float]) -> dict:
    """Count, p50 and p95 of recall latencies (ms); bench_import's phases use it too."""
    if not values:
        return {"recalls": 0}
    return {"recalls": len(values), "p50_ms": rounded(values, 0.5, 1), "p95_ms": rounded(values, 0.95, 1)}
