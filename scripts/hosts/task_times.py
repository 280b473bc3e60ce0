"""Where a Celery worker's time went, from its log (Celery logs each task's run at INFO:
"Task NAME[ID] succeeded in X s"), and the CPU each host of the drill used or waited for (/proc).

    python scripts/hosts/task_times.py LOGS/dbw.log     # a drill's --logs folder

Per task name: how many ran, their total and median seconds. Over the whole log: the seconds
between the first and last task, how much of it tasks ran (per pool process), and the rest,
which is the worker waiting for messages, taking them and acknowledging them (the broker), or idle.
"""

from __future__ import annotations

import math
import os
import re
import statistics
import sys
import time
from collections import defaultdict
from datetime import datetime
from pathlib import Path

_LINE = re.compile(
    r"^\[(?P<at>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}): INFO/(?P<proc>[\w-]+)\] "
    r"Task (?P<name>[\w.]+)\[[\w-]+\] succeeded in (?P<secs>[\d.e-]+)s"
)


def runs(text: str) -> list[tuple[float, str, str, float]]:
    """(end time, pool process, task name, seconds) of every task the log says finished."""
    out = []
    for line in text.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        end = datetime.strptime(m["at"], "%Y-%m-%d %H:%M:%S,%f").timestamp()
        out.append((end, m["proc"], m["name"], float(m["secs"])))
    return out


def summary(text: str) -> dict:
    """Per task name and over the log: counts, seconds, and the share of time tasks ran."""
    done = runs(text)
    if not done:
        return {"tasks": 0}
    by_name: dict[str, list[float]] = defaultdict(list)
    busy: dict[str, float] = defaultdict(float)
    for _, proc, name, secs in done:
        by_name[name].append(secs)
        busy[proc] += secs
    first = min(end - secs for end, _, _, secs in done)
    span = max(end for end, _, _, _ in done) - first
    processes = len(busy)
    ran = sum(busy.values())
    return {
        "tasks": len(done),
        "span_s": round(span, 1),
        "pool_processes": processes,
        "running_s": round(ran, 1),
        # Of each pool process's time, the share it spent inside tasks; the rest went to the broker
        # round trip between tasks (take, acknowledge) or to waiting for work.
        "running_share": round(ran / (span * processes), 3) if span else None,
        "per_task": {
            name: {
                "n": len(secs),
                "total_s": round(sum(secs), 1),
                "median_ms": round(statistics.median(secs) * 1000, 1),
                "p95_ms": round(sorted(secs)[math.ceil(0.95 * len(secs)) - 1] * 1000, 1),
            }
            for name, secs in sorted(by_name.items(), key=lambda kv: -sum(kv[1]))
        },
    }


def _processes() -> dict[int, tuple[int, int]]:
    """pid -> (parent pid, session) of every process now."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                # After the name: state(0) ppid(1) pgrp(2) session(3)
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # gone meanwhile
            out[int(entry.name)] = (int(fields[1]), int(fields[3]))
    return out


def host_processes(root: int) -> set[int]:
    """The live processes of one host of the drill: its process (started in a session of its
    own), the others of that session, and their descendants (PostgreSQL's backends each start a
    session of their own)."""
    procs = _processes()
    mine = {pid for pid, (_, session) in procs.items() if session == root} | ({root} & procs.keys())
    grew = True
    while grew:
        more = {pid for pid, (parent, _) in procs.items() if parent in mine} - mine
        mine |= more
        grew = bool(more)
    return mine


def sched_seconds(root: int) -> tuple[float, float]:
    """(seconds on a CPU, seconds runnable but waiting for a CPU) of one host: the threads of its
    live processes (host_processes), from /proc/<pid>/task/<tid>/schedstat, and on the CPU also
    the processes of it that have exited and been reaped by one of them (a PostgreSQL backend
    whose connection closed, an autovacuum worker, a pool child replaced), from their parent's
    cutime and cstime. What a task's time is beyond both is sleeping: on the network, the disk,
    a lock, another process's answer."""
    ran = waited = 0
    reaped = 0
    for pid in host_processes(root):
        try:
            for thread in Path(f"/proc/{pid}/task").iterdir():
                on_cpu, on_queue, _ = (thread / "schedstat").read_text().split()
                ran, waited = ran + int(on_cpu), waited + int(on_queue)
        except (OSError, ValueError):
            continue  # gone meanwhile
        reaped += (stat_ticks(pid) or (0, 0))[1]
    return ran / 1e9 + reaped / os.sysconf("SC_CLK_TCK"), waited / 1e9


def stat_ticks(pid: int) -> tuple[int, int] | None:
    """(its own CPU ticks, the ticks of the exited children it reaped) of one process, from
    /proc/<pid>/stat; None once it is gone."""
    try:
        # After the name: ... utime(11) stime(12) cutime(13) cstime(14)
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])


def machine_seconds() -> tuple[float, float]:
    """(seconds every CPU of the machine was busy, the drill's own process's CPU seconds) so far:
    beside the hosts' (sched_seconds), what is left is the kernel's and that of processes no host
    reaped (a host killed by a fault is reaped by the drill)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    busy = (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")
    return busy, time.process_time()


def main(argv: list[str]) -> None:
    import json

    for path in argv:
        print(path)
        print(json.dumps(summary(Path(path).read_text(errors="replace")), indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
