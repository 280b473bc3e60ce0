"""Where the PostgreSQL primary's CPU goes, by kind of process: each client host's connections,
the replica's WAL sender, autovacuum, the checkpointer and the other background processes.

PostgreSQL names each of its processes in its title ("postgres: postgres memory 10.77.0.11(40312)
idle", "postgres: autovacuum worker", "postgres: walsender postgres 10.77.0.41(...) streaming"),
and /proc/<pid>/stat holds each one's CPU ticks. The drill samples the primary's processes every
`PERIOD` seconds while it streams; a process that exits between two samples is counted from its
last sample, and what no sample saw (a connection opened and closed between two) is the rest of
what the postmaster reaped (its cutime and cstime), reported as "exited, unsampled".
"""

from __future__ import annotations

import os
import re
import threading
from collections import defaultdict
from pathlib import Path

from services import HOSTS, addr
from task_times import host_processes, stat_ticks

PERIOD = 1.0
_TICK = os.sysconf("SC_CLK_TCK")
# A client backend's title: user, database, the client's address (or [local]), what it does.
_CLIENT = re.compile(r"^postgres: \S+ \S+ (?P<address>\d+\.\d+\.\d+\.\d+|\[local\])")


def _title(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def kind_of(title: str, hosts: dict[str, str]) -> str:
    """The kind of one of the primary's processes, from its title; a client backend by the host
    it serves (`hosts`: address -> host name)."""
    if not title.startswith("postgres: "):
        return "postmaster"
    if title.startswith("postgres: walsender"):
        return "walsender (replica)"
    if title.startswith("postgres: autovacuum worker"):
        return "autovacuum worker"
    if match := _CLIENT.match(title):
        address = match["address"]
        return "clients: " + hosts.get(address, "local socket" if address == "[local]" else address)
    return " ".join(title.split()[1:3])  # "checkpointer", "background writer", "autovacuum launcher"


class PrimaryWork(threading.Thread):
    """Samples the primary's processes until `stop()`; `seconds()` is the CPU by kind since start."""

    def __init__(self, root: int) -> None:
        super().__init__(daemon=True, name="primary-work")
        self.root = root
        self.hosts = {addr(name): name for name in HOSTS}
        self._stopping = threading.Event()
        self._base: dict[int, int] = {}  # ticks a process had when first seen at the start
        self._last: dict[int, tuple[str, int]] = {}  # pid -> (kind, ticks at its last sample)
        self._reaped_at_start = reaped_ticks(root)
        self._sample(first=True)

    def run(self) -> None:
        while not self._stopping.wait(PERIOD):
            self._sample()

    def stop(self) -> None:
        self._stopping.set()
        if self.is_alive():
            self.join(timeout=5)
        self._sample()

    def _sample(self, first: bool = False) -> None:
        for pid in host_processes(self.root):
            ticks = stat_ticks(pid)
            if ticks is None:
                continue
            if pid in self._last:
                kind = self._last[pid][0]
            elif title := _title(pid):
                kind = kind_of(title, self.hosts)
            else:
                continue  # exiting (a zombie has no command line): the reaped ticks will count it
            if first:
                self._base[pid] = ticks[0]
            self._last[pid] = (kind, ticks[0])

    def seconds(self) -> dict[str, float]:
        """CPU seconds by kind since the start: each process's last sample less what it had then,
        and "exited, unsampled": the ticks the host's processes reaped from exited children beyond
        those children's last samples (a connection opened and closed between two samples, or a
        process's last moments)."""
        by_kind: dict[str, float] = defaultdict(float)
        alive = host_processes(self.root)
        sampled_then_exited = 0
        for pid, (kind, ticks) in self._last.items():
            by_kind[kind] += (ticks - self._base.get(pid, 0)) / _TICK
            if pid not in alive:
                sampled_then_exited += ticks  # all of it was reaped, from before the start too
        reaped = reaped_ticks(self.root) - self._reaped_at_start
        by_kind["exited, unsampled"] = max(0, reaped - sampled_then_exited) / _TICK
        return {kind: round(s, 1) for kind, s in sorted(by_kind.items(), key=lambda kv: -kv[1])}


def reaped_ticks(root: int) -> int:
    """The CPU ticks of exited children the host's live processes have reaped so far."""
    return sum((stat_ticks(pid) or (0, 0))[1] for pid in host_processes(root))
