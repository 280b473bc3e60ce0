"""How the drill waits after a fault (scripts/hosts/procs.py `wait_while_draining`): a backlog
that shrinks is late, one that stops shrinking is lost. No root needed."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts/hosts"))

import procs  # noqa: E402

pytestmark = pytest.mark.no_database


def _counts(*values):
    seen = iter(values)
    last = values[-1]
    return lambda: next(seen, last)


def test_a_backlog_that_keeps_shrinking_is_waited_for_past_the_stall_limit():
    # Each reading 0.01 s apart; the stall limit is 0.05 s but the whole drain takes longer.
    left = _counts(*range(30, -1, -1))
    began = time.monotonic()
    assert procs.wait_while_draining(left, stall=0.05, cap=5.0, interval=0.01)
    assert time.monotonic() - began > 0.05


def test_a_backlog_that_stops_shrinking_is_given_up_after_the_stall_limit():
    left = _counts(5, 4, 3, 3)
    began = time.monotonic()
    assert not procs.wait_while_draining(left, stall=0.1, cap=5.0, interval=0.01)
    assert 0.1 <= time.monotonic() - began < 1.0


def test_unreadable_counts_are_no_progress_and_the_cap_bounds_a_slow_drain():
    assert not procs.wait_while_draining(lambda: None, stall=0.05, cap=5.0, interval=0.01)
    slow = _counts(*range(10_000, 0, -1))
    began = time.monotonic()
    assert not procs.wait_while_draining(slow, stall=1.0, cap=0.1, interval=0.01)
    assert time.monotonic() - began < 1.0
