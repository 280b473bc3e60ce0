"""What the drill reports of its db worker's tasks (scripts/hosts/task_times.py), read from a
Celery log. No root needed."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts/hosts"))

import task_times  # noqa: E402

LOG = """\
[2026-11-28 05:20:00,000: INFO/MainProcess] Task facts.extract_turn[id3] received
[2026-11-28 05:20:00,100: INFO/ForkPoolWorker-1] Task facts.extract_turn[id3] succeeded in 0.1s: None
[2026-11-28 05:20:00,400: INFO/ForkPoolWorker-2] Task facts.apply_extraction[id4] succeeded in 0.3s: None
[2026-11-28 05:20:00,450: WARNING/ForkPoolWorker-1] Applying the extraction of turn 7 failed
[2026-11-28 05:20:01,000: INFO/ForkPoolWorker-1] Task facts.apply_extraction[id5] succeeded in 0.5s: None
[2026-11-28 05:20:01,000: INFO/ForkPoolWorker-1] Task facts.extract_turn[id6] retry: Retry in 1s
"""


def test_the_db_workers_log_says_how_long_each_kind_of_task_ran_and_how_much_of_the_time_tasks_ran():
    got = task_times.summary(LOG)
    assert got["tasks"] == 3 and got["pool_processes"] == 2
    assert got["span_s"] == 1.0  # from the first task's start (05:20:00.000) to the last's end
    assert got["running_s"] == 0.9 and got["running_share"] == 0.45
    assert list(got["per_task"]) == ["facts.apply_extraction", "facts.extract_turn"]
    assert got["per_task"]["facts.apply_extraction"] == {"n": 2, "total_s": 0.8, "median_ms": 400.0, "p95_ms": 500.0}


def test_a_process_of_this_session_is_seen_on_the_cpu():
    ran, waited = task_times.sched_seconds(os.getsid(0))
    assert ran > 0 and waited >= 0


def test_a_hosts_processes_include_children_that_started_a_session_of_their_own():
    # PostgreSQL's backends call setsid(): counted by their parent, the postmaster.
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"], start_new_session=True)
    try:
        assert child.pid in task_times.host_processes(os.getpid())
        assert os.getpid() in task_times.host_processes(os.getpid())
    finally:
        child.kill()
        child.wait()


def test_the_machine_was_busy_at_least_as_long_as_this_process_ran_since_a_first_reading():
    busy_before, mine_before = task_times.machine_seconds()
    deadline = time.process_time() + 0.3
    while time.process_time() < deadline:
        pass
    busy_after, mine_after = task_times.machine_seconds()
    assert mine_after - mine_before >= 0.3
    # The kernel counts in clock ticks: allow one tick's rounding at each end.
    assert busy_after - busy_before >= mine_after - mine_before - 2 / os.sysconf("SC_CLK_TCK")


def test_a_hosts_cpu_includes_its_processes_that_have_exited():
    # A PostgreSQL backend ends with its connection: its CPU is then its parent's to count.
    burn = "import time\nend = time.process_time() + 0.4\nwhile time.process_time() < end: pass"
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import subprocess, sys, time\nsubprocess.run([sys.executable, '-c', {burn!r}])\n"
            "print('reaped', flush=True)\ntime.sleep(30)",
        ],
        start_new_session=True,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert parent.stdout.readline().strip() == "reaped"
        ran, _ = task_times.sched_seconds(parent.pid)
        assert ran >= 0.4
    finally:
        parent.kill()
        parent.wait()
