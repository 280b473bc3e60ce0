"""Fixed-window request counters shared by every process on this host, in a small mapped file.

The rate limits (core.ratelimit) count each request of every server process
against its key. Without Redis they used Django's file cache, which increments by reading
a file and writing it back (two processes could both read 4 and both write 5: counts were
lost under load) and lists its whole folder on each write: about 15% of a worker's time
while 16 clients posted turns (docs/measurements.md §9). Here one count is a few memory
reads and writes under a lock.

The file holds a header and `slots` slots of 32 bytes: the key's 16-byte digest, the end
of its window (seconds since the epoch) and its count. A key's slot is found by open
addressing from its digest; a slot whose window has ended is free again. An update holds
an exclusive fcntl lock on the file, so one process at a time, and a thread lock, since
fcntl locks belong to a process, not to a thread. The slot count is part of the file's
name (`for_settings`): processes configured alike share one file, and none ever resizes
a file another process has mapped.
"""

from __future__ import annotations

import fcntl
import hashlib
import logging
import mmap
import os
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

log = logging.getLogger(__name__)

MAGIC = b"MSRLCNT1"
HEADER = struct.Struct("<8sI4x")  # magic, slot count
SLOT = struct.Struct("<16sdq")  # key digest, window end, count
PROBES = 32  # slots looked at from a key's home slot before the oldest one is taken over


class WindowCounters:
    """`count(key, window_end)`: this request's number in the key's window, across processes."""

    def __init__(self, path: Path, slots: int) -> None:
        if slots < PROBES:
            raise ValueError(f"at least {PROBES} slots are needed")
        self.path, self.slots = Path(path), slots
        self.size = HEADER.size + slots * SLOT.size
        self._lock = threading.Lock()
        self._opened: tuple[int, int, mmap.mmap] | None = None  # (pid, fd, map)
        self._warned_full = False

    def count(self, key: str, window_end: float, now: float | None = None) -> int:
        """Add one to `key`'s count in the window ending at `window_end`; returns the new count."""
        now = time.time() if now is None else now
        with self._locked(key) as (table, digest, home):
            return self._add(table, digest, home, window_end, now)

    def uncount(self, key: str, now: float | None = None) -> None:
        """Take back one of `key`'s count in its live window (nothing if the window has ended)."""
        now = time.time() if now is None else now
        with self._locked(key) as (table, digest, home):
            for step in range(PROBES):
                offset = HEADER.size + (home + step) % self.slots * SLOT.size
                held, ends, used = SLOT.unpack_from(table, offset)
                if held == digest and ends > now:
                    SLOT.pack_into(table, offset, digest, ends, max(used - 1, 0))
                    return

    def peek(self, key: str, now: float | None = None) -> int:
        """`key`'s count in its live window (0 if none), without adding one."""
        now = time.time() if now is None else now
        with self._locked(key) as (table, digest, home):
            for step in range(PROBES):
                held, ends, used = SLOT.unpack_from(table, HEADER.size + (home + step) % self.slots * SLOT.size)
                if held == digest and ends > now:
                    return int(used)
            return 0

    @contextmanager
    def _locked(self, key: str) -> Iterator[tuple[mmap.mmap, bytes, int]]:
        """The mapped table under both locks, with the key's digest and home slot."""
        digest = hashlib.blake2b(key.encode(), digest_size=16).digest()
        home = int.from_bytes(digest[:8], "little") % self.slots
        with self._lock:
            fd, table = self._map()
            fcntl.lockf(fd, fcntl.LOCK_EX)
            try:
                yield table, digest, home
            finally:
                fcntl.lockf(fd, fcntl.LOCK_UN)

    def _add(self, table: mmap.mmap, digest: bytes, home: int, window_end: float, now: float) -> int:
        free, oldest = None, None
        for step in range(PROBES):
            index = (home + step) % self.slots
            offset = HEADER.size + index * SLOT.size
            held, ends, used = SLOT.unpack_from(table, offset)
            if ends > now:
                if held == digest:
                    SLOT.pack_into(table, offset, digest, ends, used + 1)
                    return int(used) + 1
                if oldest is None or ends < oldest[1]:
                    oldest = (offset, ends)
            elif free is None:
                free = offset
        if free is None:
            # Every nearby slot counts a live window: take over the one ending first. Its key
            # starts again from zero (more requests let through, never a wrong refusal).
            assert oldest is not None
            free = oldest[0]
            if not self._warned_full:
                self._warned_full = True
                log.warning("Rate-limit counters are full near a key; raise MEMORY_RATE_LIMIT_SLOTS.")
        SLOT.pack_into(table, free, digest, window_end, 1)
        return 1

    def _map(self) -> tuple[int, mmap.mmap]:
        """This process's descriptor and map of the file (a forked child opens its own)."""
        pid = os.getpid()
        if self._opened is None or self._opened[0] != pid:
            self._opened = (pid, *self._open())
        return self._opened[1], self._opened[2]

    def _open(self) -> tuple[int, mmap.mmap]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.lockf(fd, fcntl.LOCK_EX)
        try:
            # A new file, or one laid out for another slot count: start it empty.
            if os.fstat(fd).st_size != self.size or os.pread(fd, HEADER.size, 0) != HEADER.pack(MAGIC, self.slots):
                os.ftruncate(fd, 0)
                os.ftruncate(fd, self.size)
                os.pwrite(fd, HEADER.pack(MAGIC, self.slots), 0)
        finally:
            fcntl.lockf(fd, fcntl.LOCK_UN)
        return fd, mmap.mmap(fd, self.size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)


_shared: dict[tuple[str, int], WindowCounters] = {}
_shared_lock = threading.Lock()


def for_settings(var_dir: Path, slots: int) -> WindowCounters:
    """The process's counters for this var folder and slot count (one object, one mapping)."""
    key = (str(var_dir), slots)
    with _shared_lock:
        if key not in _shared:
            _shared[key] = WindowCounters(Path(var_dir) / f"ratelimit-{slots}.counters", slots)
        return _shared[key]
