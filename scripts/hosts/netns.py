"""The drill's network: one Linux network namespace per host, all on a bridge that lives in a
namespace of its own, so the machine's own interfaces and routes are never touched.

Every name starts with `mhd<run>-` (the run's id): teardown deletes exactly the namespaces
this run made (deleting a namespace deletes its veth ends and the bridge with it), after
killing whatever process still runs inside them (`ip netns pids`).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess

PREFIX = "mhd"
SUBNET = "10.231.0"
CLONE_NEWNET = 0x40000000


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], check=check, capture_output=True, text=True)


def our_namespaces(prefix: str = PREFIX) -> list[str]:
    """Namespaces whose name starts with `prefix` (only the drill's names do)."""
    out = ip("netns", "list", check=False).stdout
    return [line.split()[0] for line in out.splitlines() if line.startswith(prefix)]


class Network:
    def __init__(self, run_id: str) -> None:
        self.prefix = f"{PREFIX}{run_id}-"
        self.switch = f"{self.prefix}sw"
        self.addresses: dict[str, str] = {}
        self.made: list[str] = []
        self._home: int | None = None

    def ns(self, role: str) -> str:
        return f"{self.prefix}{role}"

    def create(self) -> None:
        self._add_namespace(self.switch)
        ip("-n", self.switch, "link", "add", "br0", "type", "bridge")
        ip("-n", self.switch, "link", "set", "br0", "up")

    def add_host(self, role: str, octet: int) -> str:
        """A namespace for `role` with eth0 on the bridge at 10.231.0.<octet>/24; its address."""
        ns, port, address = self.ns(role), f"p-{role}"[:15], f"{SUBNET}.{octet}"
        self._add_namespace(ns)
        ip("-n", self.switch, "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", ns)
        ip("-n", self.switch, "link", "set", port, "master", "br0", "up")
        ip("-n", ns, "addr", "add", f"{address}/24", "dev", "eth0")
        ip("-n", ns, "link", "set", "eth0", "up")
        self.addresses[role] = address
        return address

    def _add_namespace(self, ns: str) -> None:
        ip("netns", "add", ns)
        self.made.append(ns)
        ip("-n", ns, "link", "set", "lo", "up")

    def run_in(self, role: str, args: list[str]) -> list[str]:
        return ["ip", "netns", "exec", self.ns(role), *args]

    def enter(self, role: str) -> None:
        """Move this thread (and the threads and children it starts later) into `role`'s
        namespace: the drill's clients then reach the hosts as any client on the bridge."""
        libc = ctypes.CDLL(None, use_errno=True)
        self._home = os.open("/proc/self/ns/net", os.O_RDONLY)
        fd = os.open(f"/run/netns/{self.ns(role)}", os.O_RDONLY)
        try:
            if libc.setns(fd, CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), "setns")
        finally:
            os.close(fd)

    def leave(self) -> None:
        if self._home is not None:
            ctypes.CDLL(None, use_errno=True).setns(self._home, CLONE_NEWNET)
            os.close(self._home)
            self._home = None

    def pids(self, ns: str) -> list[int]:
        out = ip("netns", "pids", ns, check=False).stdout
        return [int(word) for word in out.split() if word.isdigit()]

    def destroy(self) -> list[str]:
        """Kill what still runs in our namespaces, delete them; the names that would not go."""
        self.leave()
        for ns in reversed(self.made):
            for pid in self.pids(ns):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        left = []
        for ns in reversed(self.made):
            if ip("netns", "del", ns, check=False).returncode != 0 and ns in our_namespaces(self.prefix):
                left.append(ns)
        self.made = [ns for ns in self.made if ns in left]
        return left
