"""What the hosts' processes cost over the drill's stream: the work report it prints and keeps
in its JSON before the hosts stop (also after an error or Ctrl-C)."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import task_times
from pg_work import PrimaryWork
from services import Cluster


@dataclass
class Baseline:
    """Taken as the stream begins; the report counts from it."""

    at: float  # time.monotonic()
    sched: dict[int, tuple[float, float]]  # pid -> task_times.sched_seconds
    machine: tuple[float, float]  # task_times.machine_seconds
    primary: PrimaryWork  # the primary's CPU by kind of process

    @classmethod
    def take(cls, cluster: Cluster) -> Baseline:
        primary = PrimaryWork(cluster.procs["pg1"].pid)
        primary.start()
        sched = {p.pid: task_times.sched_seconds(p.pid) for p in cluster.procs.values()}
        return cls(time.monotonic(), sched, task_times.machine_seconds(), primary)


def work_report(cluster: Cluster, baseline: Baseline | None, db_concurrency: int) -> dict:
    """The CPU seconds each host used and waited for since the stream began (its live processes
    and the exited ones they reaped; a host killed by a fault counts from its restart), the
    machine's busy seconds and the drill's own, the db worker's tasks from its log
    (scripts/hosts/task_times.py), and the load average. Before the stream began (no baseline)
    there is nothing to compare the machine's figures with."""
    # A copy: after a Ctrl-C while the hosts start, a thread may still be adding one.
    procs = dict(cluster.procs)
    now = {name: task_times.sched_seconds(p.pid) for name, p in procs.items() if p.alive()}
    at_start = baseline.sched if baseline else {}
    since = {name: at_start.get(p.pid, (0.0, 0.0)) for name, p in procs.items()}
    cpu = {n: now[n][0] - since[n][0] for n in now}
    machine = dict.fromkeys(("machine_busy_s", "drill_process_cpu_s", "other_cpu_s"))
    if baseline is not None:
        busy, mine = (b - a for a, b in zip(baseline.machine, task_times.machine_seconds(), strict=True))
        # The machine's busy CPU seconds and the drill process's own (its clients' threads), and
        # what is neither the hosts' nor the drill's: the kernel, processes reaped by none of them.
        figures = (busy, mine, busy - mine - sum(cpu.values()))
        machine = {name: round(seconds, 1) for name, seconds in zip(machine, figures, strict=True)}
        baseline.primary.stop()
    return {
        # Over the stream (from its start, or a host's restart, to now): seconds on a CPU, and
        # seconds runnable but waiting for one (the machine's other work, or the drill's own).
        "seconds": round(time.monotonic() - baseline.at, 1) if baseline else None,
        "cpu_s": {n: round(seconds, 1) for n, seconds in cpu.items()},
        "cpu_wait_s": {n: round(now[n][1] - since[n][1], 1) for n in now},
        **machine,
        # The primary's share by kind of process (each client host's connections, the WAL
        # sender, autovacuum, ...): until a restart of the primary, if a fault made one.
        "primary_cpu_by_kind_s": baseline.primary.seconds() if baseline else {},
        "db_worker_tasks": task_times.summary(procs["dbw"].log_since(0)) if "dbw" in procs else {},
        "db_concurrency": db_concurrency,
        "load_average": [round(x, 1) for x in os.getloadavg()],
    }
