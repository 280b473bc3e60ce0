"""Issue 36's drill: every role of a many-host deployment on its own host (a Linux network
namespace on a private bridge), LoCoMo turns streaming at 5/s and recalls at 20/s through
HAProxy, faults injected one at a time, and after each: every acknowledged turn processed
exactly once, no fact doubled, every marker fact recalled, API errors counted and placed.

    sudo nice -n 10 .venv/bin/python scripts/hosts/drill.py            # every fault (~8 min)
    sudo nice -n 10 .venv/bin/python scripts/hosts/drill.py --short    # one fault (make test)

Root is needed (namespaces, veth, tc). Everything it makes (namespaces `mhd<pid>-*`, their
veth ends and bridge, every process, the temp folder) is removed when it ends, also on an
error, Ctrl-C or SIGTERM. The topology is in docs/deployment.md ("The drill").
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from checks import Store, marker_recalled, read_your_writes, unfinished  # noqa: E402
from load import Api, Stream, TurnPost  # noqa: E402
from netns import Network  # noqa: E402
from procs import wait_for  # noqa: E402
from services import HOSTS, ROOT, Cluster, addr  # noqa: E402

DATA = ROOT.parent / "shared/data/locomo-dev"
FAULTS = ("web-kill", "dbworker-kill", "redis-restart", "replica-lag", "primary-restart")
RECOVERY_LIMIT = 240.0


@dataclass
class Result:
    fault: str
    start: float  # seconds since the stream began
    restored: float  # the fault's action is over (host started again, lag removed)
    recovered: float  # answering again and every turn acknowledged before `restored` processed
    errors_in_window: dict[str, int]
    acked: int
    lost: int
    doubled: int
    markers: str
    note: str = ""
    details: dict = field(default_factory=dict)

    def row(self) -> str:
        errors = ", ".join(f"{n} {k}" for k, n in sorted(self.errors_in_window.items())) or "0"
        window = f"{self.start:.0f}-{self.recovered:.0f} s"
        recover = f"{self.recovered - self.start:.1f} s"
        cells = [self.fault, window, errors, f"{self.lost} of {self.acked}", self.doubled, self.markers, recover]
        return "| " + " | ".join(str(cell) for cell in cells) + " |"


def build_plan(data: Path, run_id: str, turns: int, marker_every: int = 10) -> list[TurnPost]:
    """LoCoMo dev turns, the conversations interleaved (one memory user each), with a marker
    turn ("I use <word>.", a word no conversation has) after every `marker_every`."""
    queues = []
    for file in sorted(data.glob("*.json")):
        conv = json.loads(file.read_text())
        user, posts = f"locomo-{file.stem}", []
        n = 1
        while f"session_{n}" in conv:
            session = conv[f"session_{n}"]
            for j, turn in enumerate(session):
                reply = session[j + 1]["text"] if j + 1 < len(session) else ""
                sid = f"session-{n}-{turn['speaker']}"
                posts.append(TurnPost(user, sid, turn["dia_id"], f"{turn['speaker']}: {turn['text']}", reply))
            n += 1
        queues.append(posts)
    plan: list[TurnPost] = []
    i = 0
    while len(plan) < turns and any(queues):
        queue = queues[i % len(queues)]
        i += 1
        if queue:
            plan.append(queue.pop(0))
            if len(plan) % marker_every == 0:
                marker = f"zqmk{run_id}x{len(plan)}"
                plan.append(
                    TurnPost(plan[-1].user, "drill-markers", f"mk{len(plan)}", f"I use {marker}.", marker=marker)
                )
    return plan


class Drill:
    def __init__(self, opts: argparse.Namespace) -> None:
        self.opts = opts
        self.run_id = str(os.getpid())
        self.tmp = Path(tempfile.mkdtemp(prefix=f"mhd{self.run_id}-"))
        self.net = Network(self.run_id)
        self.cluster: Cluster | None = None
        self.stream: Stream | None = None
        self.results: list[Result] = []
        self.unrecovered = 0
        self.replicas = replicas_landed()

    def say(self, message: str) -> None:
        stamp = f"{self.stream.now():6.1f}" if self.stream else "   -  "
        print(f"[{stamp}] {message}", flush=True)

    # --- building -------------------------------------------------------------------------------
    def build(self) -> None:
        began = time.monotonic()
        self.net.create()
        for role, octet in HOSTS.items():
            self.net.add_host(role, octet)
        self.net.enter("client")
        c = self.cluster = Cluster(self.net, self.tmp, replica_env=True, log_statements=self.replicas)
        c.start_redis()
        c.start_llm()
        c.start_llm_worker()  # it needs no database: it loads its model while the primary starts
        c.start_primary()
        self.say("primary up")
        c.start_replica()
        self.say("replica up (pg_basebackup -R)")
        self.key = c.migrate()
        self.say("migrated")
        for start in (lambda: c.start_web("web1"), lambda: c.start_web("web2"), c.start_db_worker):
            start()
        for role in ("web1", "web2"):
            wait_for(lambda role=role: c.web_ready(role), 240, role, 0.5)
        for role in ("dbw", "llmw"):
            wait_for(lambda role=role: c.worker_ready(role), 240, role, 0.5)
        c.start_proxy()
        self.store = Store(c.db_url)
        self.api = Api(addr("proxy"), 80, self.key)
        self.say(f"{len(HOSTS)} hosts up in {time.monotonic() - began:.0f} s (replica routing: {self.replicas})")

    # --- faults ---------------------------------------------------------------------------------
    def inject(self, fault: str) -> tuple[float, float, str, dict]:
        c, s = self.cluster, self.stream
        assert c is not None and s is not None
        start, note, details = s.now(), "", {}
        if fault == "web-kill":
            c.procs["web1"].kill()
            time.sleep(self.opts.hold)
            mark = c.procs["web1"].log_size()
            c.restart("web1")
            wait_for(lambda: c.web_ready("web1", since=mark), 240, "web1 again", 0.5)
            note = "kill -9 web1 (gunicorn master and worker); started again after the hold"
        elif fault == "dbworker-kill":
            c.procs["dbw"].kill()
            time.sleep(self.opts.hold)
            mark = c.procs["dbw"].log_size()
            c.restart("dbw")
            wait_for(lambda: c.worker_ready("dbw", since=mark), 240, "db worker again", 0.5)
            note = "kill -9 the db worker (with its beat and pool); started again after the hold"
        elif fault == "redis-restart":
            details["before"] = c.redis_queues()
            c.procs["redis"].kill()
            c.restart("redis")
            wait_for(lambda: c.redis_up(), 30, "redis again")
            details["after"] = c.redis_queues()
            note = "kill -9 redis-server, started again on its append-only file"
        elif fault == "replica-lag":
            c.replica_apply_delay("2s")
            before = c.vector_searches() if self.replicas else {}
            details["lag_s"] = self.watch_lag(self.opts.lag_hold)
            if self.replicas:
                details["replica_share_in_lag"] = share(before, c.vector_searches())
            c.replica_apply_delay(None)
            note = "the replica applies every commit 2 s late (recovery_min_apply_delay)"
        elif fault == "primary-restart":
            c.restart_primary()
            note = "fast shutdown of the primary and a start (its clients' connections cut)"
        return start, s.now(), note, details

    def probe(self, count: int) -> dict:
        """`count` "store then recall at once" probes, 4 clients at a time, while the replica lags."""
        from concurrent.futures import ThreadPoolExecutor

        began = time.monotonic()
        users = [f"ryw-{self.run_id}-{i}" for i in range(4)]
        with ThreadPoolExecutor(4) as pool:
            found = list(pool.map(lambda n: read_your_writes(self.api, self.store, users[n % 4], n), range(count)))
        return {
            "probes": count,
            "misses_at_once": sum(1 for at_once, _ in found if not at_once),
            "misses": sum(1 for _, indexed in found if not indexed),  # once the primary had indexed it
            "seconds": round(time.monotonic() - began, 1),
        }

    def watch_lag(self, hold: float) -> float:
        assert self.cluster is not None
        worst, until = 0.0, time.monotonic() + hold
        while time.monotonic() < until:
            try:
                lag = self.store.replica_lag_seconds(self.cluster.replica_url)
            except Exception:  # noqa: BLE001 (a probe; the replica may be busy)
                lag = None
            worst = max(worst, lag or 0.0)
            time.sleep(0.5)
        return round(worst, 2)

    def recover(self, restored: float, traffic: bool = True) -> float:
        """Seconds since the stream began when the API answers turns and recalls again (while
        the clients send them) and every turn acknowledged before the fault ended is processed."""
        s = self.stream
        assert s is not None
        acked = s.acked_before(restored)

        def settled() -> bool:
            if traffic and (s.last_ok("turn") <= restored or s.last_ok("recall") <= restored):
                return False
            try:
                return not unfinished(self.store, acked)
            except Exception:  # noqa: BLE001 (the primary may be starting again)
                return False

        try:
            wait_for(settled, RECOVERY_LIMIT, "recovery", 0.5)
        except TimeoutError:
            self.say(f"not recovered within {RECOVERY_LIMIT:.0f} s")
            self.unrecovered += 1
        return s.now()

    def check(self, fault: str, start: float, restored: float, note: str, details: dict) -> Result:
        s = self.stream
        assert s is not None
        recovered = self.recover(restored)
        acked = s.acked_before(restored)
        lost = unfinished(self.store, acked)
        markers = [p for p in s.plan if p.marker and (p.user, p.turn_id) in set(acked)]
        mentions = self.store.marker_mentions([p.marker for p in markers])
        doubled = self.store.doubled_facts() + sum(1 for n in mentions.values() if n > 1)
        recalled = sum(1 for p in markers if marker_recalled(self.api, p.user, p.marker))
        result = Result(
            fault,
            start,
            restored,
            recovered,
            s.errors_between(start, recovered),
            len(acked),
            len(lost),
            doubled,
            f"{recalled}/{len(markers)}",
            note,
            details | {"lost_sample": lost[:5]},
        )
        self.say(result.row())
        return result

    def run(self) -> None:
        self.build()
        plan = build_plan(self.opts.data, self.run_id, self.opts.turns)
        self.stream = Stream(self.api, plan, self.opts.turn_rate, self.opts.recall_rate)
        self.stream.start()
        self.searches_at_start = self.cluster.vector_searches() if self.replicas else {}
        self.say(f"streaming {len(plan)} turns at {self.opts.turn_rate}/s, recalls at {self.opts.recall_rate}/s")
        for fault in self.opts.faults:
            time.sleep(self.opts.calm)
            self.say(f"fault: {fault}")
            start, restored, note, details = self.inject(fault)
            self.results.append(self.check(fault, start, restored, note, details))
        time.sleep(self.opts.calm)
        self.stream.stop()
        self.final()
        if self.replicas and self.opts.probes:
            self.probes_under_lag()

    def probes_under_lag(self) -> None:
        """Read your own writes with the replica 2 s behind: `--probes` "store then recall at
        once" probes, after the stream (their 1,000 facts and index writes, made during the
        stream, left the db worker a backlog that the fault checks then counted as lost turns)."""
        assert self.cluster is not None
        self.cluster.replica_apply_delay("2s")
        try:
            time.sleep(3)  # the delay applies from the next commit on
            before = self.cluster.vector_searches()
            result = self.probe(self.opts.probes)
            result["replica_share"] = share(before, self.cluster.vector_searches())
            result["lag_s"] = self.watch_lag(2.0)
        finally:
            self.cluster.replica_apply_delay(None)
        self.summary["read_your_writes_under_2s_lag"] = result
        self.say(json.dumps(result))

    def final(self) -> None:
        s = self.stream
        assert s is not None
        streamed = s.now()
        end = self.recover(streamed, traffic=False)
        windows = [(r.start, r.recovered) for r in self.results]
        stray = [e for e in s.events if not e.ok and not any(a <= e.t <= b for a, b in windows)]
        everything = list(s.acked)
        self.summary = {
            "run_id": self.run_id,
            "temp_folder": str(self.tmp),
            "turns_posted": s.posted,
            "turns_acked": len(everything),
            "turns_given_up": len(s.given_up),
            "turns_unprocessed_at_end": len(unfinished(self.store, everything)),
            "doubled_at_end": self.store.doubled_facts(),
            "requests": len(s.events),
            "errors_outside_windows": len(stray),
            "recalls_shed_by_busy_clients": s.shed_recalls,
            **s.rates(streamed),
            "replica_routing": self.replicas,
            "replica_share_whole_run": share(self.searches_at_start, self.cluster.vector_searches())
            if self.replicas and self.cluster
            else None,
            "faults_not_recovered_in_limit": self.unrecovered,
            "seconds": round(end, 1),
        }
        self.say(json.dumps(self.summary))

    def passed(self) -> bool:
        return (
            bool(self.results)
            and all(
                r.lost == 0 and r.doubled == 0 and r.markers.split("/")[0] == r.markers.split("/")[1]
                for r in self.results
            )
            and self.summary["errors_outside_windows"] == 0
            and self.summary["turns_given_up"] == 0
            and self.unrecovered == 0
            and self.summary.get("read_your_writes_under_2s_lag", {}).get("misses", 0) == 0
            and self.summary["turns_unprocessed_at_end"] == 0
        )

    # --- tearing down -----------------------------------------------------------------------------
    def teardown(self, failed: bool) -> None:
        if self.stream is not None:
            self.stream.stop_now()
        if self.cluster is not None:
            if failed:
                for name, proc in self.cluster.procs.items():
                    print(f"--- {name} (last lines) ---\n{proc.log(1500)}", file=sys.stderr)
            if self.opts.logs:
                shutil.copytree(self.cluster.logs, self.opts.logs, dirs_exist_ok=True)
            self.cluster.stop_all()
        left = self.net.destroy()
        shutil.rmtree(self.tmp, ignore_errors=True)
        if left:
            print(f"could not delete namespaces: {left}", file=sys.stderr)


def replicas_landed() -> bool:
    """Whether this checkout routes reads to DATABASE_REPLICA_URLS (another change of issue 36)."""
    return "DATABASE_REPLICA_URLS" in (ROOT / "memory_service/settings.py").read_text()


def share(before: dict[str, int], after: dict[str, int]) -> dict:
    """The replica's share of the vector searches run between two counts."""
    on = {role: after[role] - before.get(role, 0) for role in after}
    total = sum(on.values())
    return {
        "replica": on.get("pg2", 0),
        "primary": on.get("pg1", 0),
        "share": round(on.get("pg2", 0) / total, 3) if total else None,
    }


def table(results: list[Result]) -> str:
    head = "| fault | window | API errors in the window | turns lost | doubled | markers recalled | time to recover |"
    return "\n".join([head, "|---|---|---|---|---|---|---|", *(r.row() for r in results)])


def _terminate(signum, _frame) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--short", action="store_true", help="one fault (web-kill), few turns: the make test version")
    parser.add_argument("--faults", default=",".join(FAULTS))
    parser.add_argument("--turns", type=int, default=3000)
    parser.add_argument("--turn-rate", type=float, default=5.0)
    parser.add_argument("--recall-rate", type=float, default=20.0)
    parser.add_argument("--calm", type=float, default=15.0, help="seconds of plain streaming before each fault")
    parser.add_argument("--hold", type=float, default=5.0, help="seconds a killed host stays down")
    parser.add_argument("--lag-hold", type=float, default=20.0, help="seconds the replica lags")
    parser.add_argument("--data", type=Path, default=DATA, help="LoCoMo conversations (a folder of JSON files)")
    parser.add_argument("--probes", type=int, default=1000, help="read-your-writes probes during the replica lag")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--logs", type=Path, help="copy every host's log here before the temp folder goes")
    opts = parser.parse_args(argv)
    opts.faults = opts.faults.split(",")
    if opts.short:
        opts.faults, opts.calm, opts.hold, opts.probes = ["web-kill"], 3.0, 2.0, 0
    unknown = set(opts.faults) - set(FAULTS)
    if unknown:
        parser.error(f"unknown faults: {sorted(unknown)}; known: {', '.join(FAULTS)}")
    signal.signal(signal.SIGTERM, _terminate)
    signal.signal(signal.SIGHUP, _terminate)
    drill, failed = Drill(opts), True
    try:
        drill.run()
        failed = not drill.passed()
    finally:
        drill.teardown(failed)
    print(table(drill.results))
    if opts.json:
        opts.json.write_text(
            json.dumps({"results": [asdict(r) for r in drill.results], "summary": drill.summary}, indent=1)
        )
    print("PASSED" if not failed else "FAILED")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
