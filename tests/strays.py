"""Processes the test suite started and left running.

Each process a test starts inherits SUITE_MARK in its environment (set by tests/conftest.py),
even when it has been reparented after its parent died, so the end of the session can find
them all in /proc, whoever their parent is now.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

SUITE_MARK = "PYTEST_MEMORY_SUITE"


def _marked(pid: int, mark: bytes) -> str | None:
    """The command line of `pid` if its environment carries `mark` and it is not a zombie."""
    proc = Path(f"/proc/{pid}")
    try:
        if proc.joinpath("stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
            return None
        if mark not in proc.joinpath("environ").read_bytes().split(b"\0"):
            return None
        return proc.joinpath("cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None


def _scan(session_id: str) -> dict[int, str]:
    mark, me = f"{SUITE_MARK}={session_id}".encode(), os.getpid()
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != me and (command := _marked(int(entry.name), mark)):
            found[int(entry.name)] = command
    return found


def stray_processes(session_id: str, grace_seconds: float) -> dict[int, str]:
    """pid -> command line of every marked process still running after `grace_seconds`
    (processes being stopped when the last test ended get that long to go)."""
    deadline = time.monotonic() + grace_seconds
    while (found := _scan(session_id)) and time.monotonic() < deadline:
        time.sleep(0.5)
    return found


def stop_all(pids) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
