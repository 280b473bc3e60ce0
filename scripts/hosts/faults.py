"""The drill's faults, one at a time while the clients stream, and the read-your-writes probes
under replica lag. Each fault returns when its action is over (the host started again and
ready, the lag removed, the primary accepting connections): the drill's `restored`."""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ThreadPoolExecutor

from checks import Store, read_your_writes
from load import Api, Stream
from procs import wait_for
from services import Cluster

FAULTS = ("web-kill", "dbworker-kill", "redis-restart", "replica-lag", "primary-restart")


def share(before: dict[str, int], after: dict[str, int]) -> dict:
    """The replica's share of the vector searches run between two counts."""
    on = {role: after[role] - before.get(role, 0) for role in after}
    total = sum(on.values())
    return {
        "replica": on.get("pg2", 0),
        "primary": on.get("pg1", 0),
        "share": round(on.get("pg2", 0) / total, 3) if total else None,
    }


class Faults:
    def __init__(
        self, cluster: Cluster, stream: Stream, store: Store, api: Api, opts: argparse.Namespace, replicas: bool
    ) -> None:
        self.c, self.s, self.store, self.api, self.opts, self.replicas = cluster, stream, store, api, opts, replicas

    def inject(self, fault: str) -> tuple[float, float, str, dict]:
        """(start, restored, what was done, details) of one fault."""
        start = self.s.now()
        note, details = getattr(self, fault.replace("-", "_"))()
        return start, self.s.now(), note, details

    def web_kill(self) -> tuple[str, dict]:
        self._kill_hold_restart("web1", self.c.web_ready, "web1 again")
        return "kill -9 web1 (gunicorn master and worker); started again after the hold", {}

    def dbworker_kill(self) -> tuple[str, dict]:
        self._kill_hold_restart("dbw", self.c.worker_ready, "db worker again")
        return "kill -9 the db worker (with its beat and pool); started again after the hold", {}

    def _kill_hold_restart(self, name: str, ready, what: str) -> None:
        """kill -9 the host's processes, leave them down for the hold, start them again and wait
        until their log (written since the restart) says they are ready."""
        c = self.c
        c.procs[name].kill()
        time.sleep(self.opts.hold)
        mark = c.procs[name].log_size()
        c.restart(name)
        wait_for(lambda: ready(name, since=mark), 240, what, 0.5)

    def redis_restart(self) -> tuple[str, dict]:
        c, details = self.c, {"before": self.c.redis_queues()}
        c.procs["redis"].kill()
        c.restart("redis")
        wait_for(lambda: c.redis_up(), 30, "redis again")
        details["after"] = c.redis_queues()
        return "kill -9 redis-server, started again on its append-only file", details

    def replica_lag(self) -> tuple[str, dict]:
        c, details = self.c, {}
        c.replica_apply_delay("2s")
        before = c.vector_searches() if self.replicas else {}
        details["lag_s"] = self.watch_lag(self.opts.lag_hold)
        if self.replicas:
            details["replica_share_in_lag"] = share(before, c.vector_searches())
        c.replica_apply_delay(None)
        return "the replica applies every commit 2 s late (recovery_min_apply_delay)", details

    def primary_restart(self) -> tuple[str, dict]:
        down = self.c.restart_primary()
        note = "fast shutdown of the primary and a start (its clients' connections cut)"
        return note, {"primary_down_s": round(down, 1)}

    # --- the replica's lag and read-your-writes ---------------------------------------------------
    def watch_lag(self, hold: float) -> float:
        worst, until = 0.0, time.monotonic() + hold
        while time.monotonic() < until:
            try:
                lag = self.store.replica_lag_seconds(self.c.replica_url)
            except Exception:  # noqa: BLE001 (a probe; the replica may be busy)
                lag = None
            worst = max(worst, lag or 0.0)
            time.sleep(0.5)
        return round(worst, 2)

    def probe(self, count: int, run_id: str) -> dict:
        """`count` "store then recall at once" probes, 4 clients at a time."""
        began = time.monotonic()
        users = [f"ryw-{run_id}-{i}" for i in range(4)]
        with ThreadPoolExecutor(4) as pool:
            answers = list(pool.map(lambda n: read_your_writes(self.api, self.store, users[n % 4], n), range(count)))
        found = [answer for answer in answers if answer is not None]
        return {
            "probes": count,
            "writes_refused": count - len(found),
            "misses_at_once": sum(1 for at_once, _ in found if not at_once),
            "misses": sum(1 for _, indexed in found if not indexed),  # once the primary had indexed it
            "seconds": round(time.monotonic() - began, 1),
        }

    def probes_under_lag(self, count: int, run_id: str) -> dict:
        """Read your own writes with the replica 2 s behind: `count` probes, after the stream
        (their facts and index writes, made during the stream, left the db worker a backlog
        that the fault checks then counted as lost turns)."""
        self.c.replica_apply_delay("2s")
        try:
            time.sleep(3)  # the delay applies from the next commit on
            before = self.c.vector_searches()
            result = self.probe(count, run_id)
            result["replica_share"] = share(before, self.c.vector_searches())
            result["lag_s"] = self.watch_lag(2.0)
        finally:
            self.c.replica_apply_delay(None)
        return result
