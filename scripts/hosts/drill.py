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

from checks import Store, marker_recalled, unfinished  # noqa: E402
from faults import FAULTS, Faults, share  # noqa: E402
from layout import bring_up, make_network  # noqa: E402
from load import Api, Stream  # noqa: E402
from netns import Network  # noqa: E402
from plan import build_plan, default_data  # noqa: E402
from procs import wait_for, wait_while_draining  # noqa: E402
from services import ROOT, Cluster, addr  # noqa: E402
from work import Baseline, work_report  # noqa: E402

RECOVERY_LIMIT = 240.0
# The longest a shrinking backlog is waited for after a fault (drill.recover).
DRAIN_LIMIT = 1200.0


@dataclass
class Result:
    fault: str
    start: float  # seconds since the stream began
    restored: float  # the fault's action is over (host started again, lag removed, primary accepting)
    recovered: float  # answering again and every turn acknowledged before `restored` processed
    errors_in_window: dict[str, int]
    acked: int
    lost: int
    doubled: int
    markers: str
    note: str = ""
    details: dict = field(default_factory=dict)
    served_again: float | None = None  # seconds from `restored` to a turn and a recall answered

    def row(self) -> str:
        errors = ", ".join(f"{n} {k}" for k, n in sorted(self.errors_in_window.items())) or "0"
        window = f"{self.start:.0f}-{self.recovered:.0f} s"
        recover = f"{self.recovered - self.start:.1f} s"
        served = "-" if self.served_again is None else f"{self.served_again:.1f} s"
        cells = [
            self.fault,
            window,
            errors,
            f"{self.lost} of {self.acked}",
            self.doubled,
            self.markers,
            recover,
            served,
        ]
        return "| " + " | ".join(str(cell) for cell in cells) + " |"


class Drill:
    def __init__(self, opts: argparse.Namespace) -> None:
        self.opts = opts
        self.run_id = str(os.getpid())
        self.tmp = Path(tempfile.mkdtemp(prefix=f"mhd{self.run_id}-", dir=opts.tmp_dir))
        self.net = Network(self.run_id)
        self.cluster: Cluster | None = None
        self.stream: Stream | None = None
        self.store: Store | None = None
        self.results: list[Result] = []
        self.summary: dict = {}
        self.unrecovered = 0
        self.exited: list[str] = []  # hosts whose processes ended by themselves
        self.replicas = replicas_landed()
        self.baseline: Baseline | None = None  # what the work report counts from

    def say(self, message: str) -> None:
        stamp = f"{self.stream.now():6.1f}" if self.stream else "   -  "
        print(f"[{stamp}] {message}", flush=True)

    # --- building -------------------------------------------------------------------------------
    def build(self) -> None:
        make_network(self.net)
        self.cluster = Cluster(
            self.net, self.tmp, replica_env=True, log_statements=self.replicas, db_concurrency=self.opts.db_concurrency
        )
        key = bring_up(self.cluster, self.say)
        self.store = Store(self.cluster.db_url)
        self.api = Api(addr("proxy"), 80, key)
        self.say(f"replica routing: {self.replicas}")

    # --- faults and checks ------------------------------------------------------------------------
    def recover(self, restored: float, traffic: bool = True) -> float:
        """Seconds since the stream began when the API answers turns and recalls again (while
        the clients send them) and every turn acknowledged before the fault ended is processed.
        At rates above what the hosts process (2 cores for all of them), a backlog builds: it is
        waited for while it shrinks (up to DRAIN_LIMIT), and given up on once it has not shrunk
        for RECOVERY_LIMIT seconds."""
        s = self.stream
        assert s is not None
        acked = s.acked_before(restored)

        def left() -> int | None:
            if self.exited_hosts():
                return 0  # nothing more drains: said below
            turn_due = s.posting() and s.last_ok("turn") <= restored
            try:
                waiting = len(unfinished(self.store, acked))
            except Exception:  # noqa: BLE001 (the primary may be starting again)
                return None
            if traffic and (turn_due or s.last_ok("recall") <= restored):
                return max(1, waiting)  # the API is not answering again yet
            return waiting

        drained = wait_while_draining(left, RECOVERY_LIMIT, DRAIN_LIMIT)
        if exited := [name for name in self.exited_hosts() if name not in self.exited]:
            self.exited += exited
            self.say(f"not recovered: {', '.join(exited)} exited by itself (logs: {self.cluster.logs})")
            self.unrecovered += 1
        elif not drained:
            self.say(f"not recovered: nothing drained for {RECOVERY_LIMIT:.0f} s, or {DRAIN_LIMIT:.0f} s in all")
            self.unrecovered += 1
        return s.now()

    def exited_hosts(self) -> list[str]:
        """The hosts whose process ended without the drill stopping it: a fault kills one and
        starts it again before its window ends, so none should have by now."""
        assert self.cluster is not None
        return [name for name, proc in self.cluster.procs.items() if not proc.alive()]

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
            served_again=s.served_again(restored),
        )
        self.say(result.row())
        return result

    def run(self) -> None:
        self.say(f"temp folder {self.tmp}")
        self.build()
        assert self.cluster is not None
        plan = build_plan(self.opts.data, self.run_id, self.opts.turns)
        self.stream = Stream(self.api, plan, self.opts.turn_rate, self.opts.recall_rate)
        faults = Faults(self.cluster, self.stream, self.store, self.api, self.opts, self.replicas)
        self.stream.start()
        self.baseline = Baseline.take(self.cluster)
        self.searches_at_start = self.cluster.vector_searches() if self.replicas else {}
        self.say(
            f"streaming {len(plan)} turns at {self.opts.turn_rate}/s, recalls at {self.opts.recall_rate}/s; "
            f"db worker concurrency {self.opts.db_concurrency}; load average {os.getloadavg()[0]:.1f}"
        )
        self.say(f"turns from {self.opts.data}")
        for fault in self.opts.faults:
            self.calm()
            self.say(f"fault: {fault}")
            start, restored, note, details = faults.inject(fault)
            self.results.append(self.check(fault, start, restored, note, details))
        self.calm()
        self.stream.stop()
        self.final()
        if self.replicas and self.opts.probes:
            result = faults.probes_under_lag(self.opts.probes, self.run_id)
            self.summary["read_your_writes_under_2s_lag"] = result
            self.say(json.dumps(result))

    def calm(self) -> None:
        """`--calm` seconds of plain streaming, and at least one turn acknowledged: a fault
        before any is an empty check (and a stream that acknowledges none is a failure)."""
        assert self.stream is not None
        time.sleep(self.opts.calm)
        stream = self.stream
        wait_for(lambda: stream.acked, RECOVERY_LIMIT, "a first acknowledged turn", 0.25)

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
            "hosts_exited_by_themselves": self.exited,
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
            and not self.exited
            and self.summary.get("read_your_writes_under_2s_lag", {}).get("misses", 0) == 0
            and self.summary.get("read_your_writes_under_2s_lag", {}).get("writes_refused", 0) == 0
            and self.summary["turns_unprocessed_at_end"] == 0
        )

    # --- tearing down -----------------------------------------------------------------------------
    def teardown(self, failed: bool) -> None:
        began = time.monotonic()
        if self.stream is not None:
            self.stream.stop_now()
        if self.cluster is not None:
            if failed:
                for name, proc in self.cluster.procs.items():
                    print(f"--- {name} (last lines) ---\n{proc.log(1500)}", file=sys.stderr)
            try:
                self.summary["work"] = work_report(self.cluster, self.baseline, self.opts.db_concurrency)
                self.say(f"work: {json.dumps(self.summary['work'])}")
            except Exception as exc:  # noqa: BLE001 (a report must not keep the hosts up)
                print(f"no work report: {exc!r}", file=sys.stderr)
            if self.opts.logs:
                shutil.copytree(self.cluster.logs, self.opts.logs, dirs_exist_ok=True)
            if self.store is not None:
                self.store.close()
            self.cluster.stop_all()
        stopped = time.monotonic()
        left = self.net.destroy()
        destroyed = time.monotonic()
        shutil.rmtree(self.tmp, ignore_errors=True)
        if left:
            print(f"could not delete namespaces: {left}", file=sys.stderr)
        steps = f"processes {stopped - began:.0f} s, namespaces {destroyed - stopped:.0f} s"
        self.say(f"torn down in {time.monotonic() - began:.0f} s ({steps}, files the rest)")


def replicas_landed() -> bool:
    """Whether this checkout routes reads to DATABASE_REPLICA_URLS (another change of issue 36)."""
    return "DATABASE_REPLICA_URLS" in (ROOT / "memory_service/settings/database.py").read_text()


def table(results: list[Result]) -> str:
    head = (
        "| fault | window | API errors in the window | turns lost | doubled | markers recalled "
        "| time to recover | serving again after restored |"
    )
    return "\n".join([head, "|---|---|---|---|---|---|---|---|", *(r.row() for r in results)])


def _terminate(signum, _frame) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--short", action="store_true", help="web-kill only, at 1 turn/s and 4 recalls/s: the make test version"
    )
    parser.add_argument("--faults", default=",".join(FAULTS))
    parser.add_argument("--turns", type=int, default=3000)
    parser.add_argument("--turn-rate", type=float, help="turns posted a second (5; --short: 1)")
    parser.add_argument("--recall-rate", type=float, help="recalls a second (20; --short: 4)")
    parser.add_argument("--calm", type=float, help="seconds of plain streaming before each fault (15; --short: 3)")
    parser.add_argument("--hold", type=float, help="seconds a killed host stays down (5; --short: 2)")
    parser.add_argument(
        "--db-concurrency", type=int, default=4, help="pool processes of the db worker (docs/deployment.md)"
    )
    parser.add_argument("--lag-hold", type=float, default=20.0, help="seconds the replica lags")
    parser.add_argument(
        "--data",
        type=Path,
        help="LoCoMo conversations (a folder of JSON files, or one); default: ../shared/data/locomo-dev "
        "where it is, else the repository's two small ones (tests/bench/data), in rounds",
    )
    parser.add_argument("--probes", type=int, default=1000, help="read-your-writes probes during the replica lag")
    parser.add_argument(
        "--tmp-dir", help="where the temp folder (PostgreSQL's data, logs) goes (--short: /dev/shm where it is)"
    )
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--logs", type=Path, help="copy every host's log here before the temp folder goes")
    opts = parser.parse_args(argv)
    opts.faults = opts.faults.split(",")
    # The short form keeps the backlog a loaded machine's db worker leaves small: the drill
    # waits for every acknowledged turn, so at 5 turns/s most of its time was that wait.
    defaults = {"turn_rate": 5.0, "recall_rate": 20.0, "calm": 15.0, "hold": 5.0}
    if opts.short:
        opts.faults, opts.probes = ["web-kill"], 0
        # In memory: on the shared machine's disk `migrate` took 56-72 s of the short drill
        # (DDL for every partition), 19 s here, and deleting the data 21 s. The web-kill fault
        # does not test PostgreSQL's durability; the full drill keeps its data on disk for the
        # primary restart.
        if opts.tmp_dir is None and Path("/dev/shm").is_dir():
            opts.tmp_dir = "/dev/shm"
        defaults = {"turn_rate": 1.0, "recall_rate": 4.0, "calm": 3.0, "hold": 2.0}
    for name, value in defaults.items():
        if getattr(opts, name) is None:
            setattr(opts, name, value)
    opts.data = opts.data or default_data()
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
