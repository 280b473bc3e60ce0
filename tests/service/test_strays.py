"""The end-of-session check finds a process a test started and left running, even once it has
been reparented, and finds nothing once it is gone (tests/strays.py)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.strays import SUITE_MARK, stop_all, stray_processes


def test_a_left_behind_grandchild_is_found_by_its_mark_and_a_stopped_one_is_not():
    # A child that starts a grandchild and exits: the grandchild is reparented, as a pool
    # process is when its worker is killed.
    spawn = "import subprocess as s; print(s.Popen(['sleep', '60'], stdout=s.DEVNULL, stderr=s.DEVNULL).pid)"
    orphan = int(subprocess.run([sys.executable, "-c", spawn], capture_output=True, text=True, check=True).stdout)
    try:
        found = stray_processes(os.environ[SUITE_MARK], grace_seconds=0)
        assert orphan in found and found[orphan].startswith("sleep")
    finally:
        stop_all([orphan])
    assert orphan not in stray_processes(os.environ[SUITE_MARK], grace_seconds=5)
