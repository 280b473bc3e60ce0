"""The rate limits' shared window counters (core.counters): exact across threads and
processes, windows that end free their slot, and a full table lets requests through."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from core.counters import PROBES, WindowCounters

ROOT = Path(__file__).resolve().parents[2]
NOW = 1_000_000.0

_COUNT_IN_A_CHILD = """
import sys
from core.counters import WindowCounters
counters = WindowCounters(sys.argv[1], int(sys.argv[2]))
for _ in range(int(sys.argv[3])):
    counters.count("shared-key", 4_000_000_000.0)
"""


def test_counts_from_many_processes_and_threads_add_up_exactly(tmp_path):
    """Django's file cache lost counts here (read, add one, write back); every one must count."""
    path = tmp_path / "counters"
    children = [
        subprocess.Popen([sys.executable, "-c", _COUNT_IN_A_CHILD, str(path), "64", "300"], cwd=ROOT) for _ in range(3)
    ]
    counters = WindowCounters(path, 64)
    threads = [
        threading.Thread(target=lambda: [counters.count("shared-key", 4_000_000_000.0) for _ in range(300)])
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for child in children:
        assert child.wait(timeout=120) == 0
    assert counters.count("shared-key", 4_000_000_000.0) == 3 * 300 + 4 * 300 + 1


def test_each_key_and_window_counts_on_its_own(tmp_path):
    counters = WindowCounters(tmp_path / "counters", 64)
    assert [counters.count("a", NOW + 60, now=NOW) for _ in range(3)] == [1, 2, 3]
    assert counters.count("b", NOW + 60, now=NOW) == 1
    # The window ended: the key's slot is free, and the next window counts from one.
    assert counters.count("a", NOW + 120, now=NOW + 61) == 1


def test_a_full_table_takes_over_the_window_ending_first_and_never_refuses(tmp_path):
    counters = WindowCounters(tmp_path / "counters", PROBES)
    for n in range(PROBES):
        assert counters.count(f"key-{n}", NOW + 100 + n, now=NOW) == 1
    assert counters.count("one-too-many", NOW + 500, now=NOW) == 1
    assert counters.count("one-too-many", NOW + 500, now=NOW) == 2
    # key-0's window ended first, so its slot was taken: it counts from zero again.
    assert counters.count("key-0", NOW + 100, now=NOW) == 1
    assert counters.count("key-5", NOW + 105, now=NOW) == 2


def test_a_file_of_another_layout_is_started_afresh(tmp_path):
    path = tmp_path / "counters"
    path.write_bytes(b"not a counter file")
    counters = WindowCounters(path, 64)
    assert counters.count("a", NOW + 60, now=NOW) == 1
    assert path.stat().st_size == 16 + 64 * 32


def test_too_few_slots_are_refused(tmp_path):
    with pytest.raises(ValueError):
        WindowCounters(tmp_path / "counters", PROBES - 1)
