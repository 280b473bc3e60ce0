"""The drill's processes: each in its own session (so kill -9 takes a whole host: a gunicorn
master and its worker, a Celery worker and its pool and beat), its output in a log file."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path


def wait_for(predicate: Callable[[], object], timeout: float, what: str, interval: float = 0.2) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")


def wait_while_draining(left: Callable[[], int | None], stall: float, cap: float, interval: float = 0.5) -> bool:
    """Wait until `left()` is 0 (None: cannot tell now). A backlog that shrinks is waited for
    up to `cap` seconds; one that has not shrunk for `stall` seconds is given up on. True if it
    drained. A turn queued behind others is late, not lost: this tells the two apart."""
    began = shrank_at = time.monotonic()
    fewest: int | None = None
    while True:
        now_left = left()
        if now_left == 0:
            return True
        now = time.monotonic()
        if now_left is not None and (fewest is None or now_left < fewest):
            fewest, shrank_at = now_left, now
        if now - shrank_at > stall or now - began > cap:
            return False
        time.sleep(interval)


class Proc:
    def __init__(self, name: str, args: list[str], *, env: dict, log_dir: Path, cwd: Path) -> None:
        self.name, self.args, self.env, self.cwd = name, args, env, cwd
        self.log_path = log_dir / f"{name}.log"
        self.popen: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        with self.log_path.open("ab") as log:
            self.popen = subprocess.Popen(
                self.args, cwd=self.cwd, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )

    @property
    def pid(self) -> int:
        assert self.popen is not None
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def signal_group(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, sig)

    def kill(self) -> None:
        """kill -9 the whole host: no chance to ack, requeue, flush or close anything."""
        self.signal_group(signal.SIGKILL)
        assert self.popen is not None
        self.popen.wait(timeout=10)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20) -> None:
        self.ask_to_stop(sig)
        self.finish_stop(time.monotonic() + timeout)

    def ask_to_stop(self, sig: int = signal.SIGTERM) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.signal_group(sig)

    def finish_stop(self, deadline: float) -> None:
        """Wait for the process until `deadline`, then kill -9 whatever is left in its group
        (a pool process, a postgres backend)."""
        if self.popen is None:
            return
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=max(0.0, deadline - time.monotonic()))
        self.signal_group(signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=10)

    def log_size(self) -> int:
        try:
            return self.log_path.stat().st_size
        except OSError:
            return 0

    def log_since(self, offset: int) -> str:
        try:
            with self.log_path.open("rb") as log:
                log.seek(offset)
                return log.read().decode(errors="replace")
        except OSError:
            return ""

    def log(self, chars: int = 4000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""
