"""The many-hosts drill (scripts/hosts/drill.py) in its short form: every role in its own network
namespace, one web host killed with kill -9 while turns and recalls stream through HAProxy;
nothing lost, nothing doubled, and nothing the drill made is left afterwards, also when it is
interrupted half-way."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DRILL = ROOT / "scripts/hosts/drill.py"

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def _why_not() -> str | None:
    if os.geteuid() != 0:
        return "the drill needs root (network namespaces, veth pairs, tc)"
    for tool in ("ip", "tc", "setpriv", "redis-server"):
        if shutil.which(tool) is None:
            return f"{tool} is missing"
    if shutil.which("haproxy") is None:
        return "haproxy is missing: run `bash scripts/system-deps.sh`"
    probe = f"mhdprobe{os.getpid()}"
    if subprocess.run(["ip", "netns", "add", probe], capture_output=True).returncode != 0:
        return "`ip netns add` is not permitted here"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


_reason = _why_not()
pytestmark.append(pytest.mark.skipif(_reason is not None, reason=_reason or ""))


def _namespaces(prefix: str) -> list[str]:
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.startswith(prefix)]


def _processes_mentioning(text: str) -> list[str]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if text in cmdline:
                found.append(f"{entry.name}: {cmdline[:200]}")
    return found


def _assert_nothing_left(run_id: str, temp_folder: str) -> None:
    assert _namespaces(f"mhd{run_id}-") == []
    assert not Path(temp_folder).exists()
    assert _processes_mentioning(temp_folder) == []


# In the fresh-clone CI run of 2026-11-27 it posted no turn: a clone has no ../shared, so the
# plan was empty (scripts/hosts/plan.py now falls back to the repository's conversations).
# In the fresh-clone run of 44992e8 its fault came before the first marker turn (markers
# 0/0; plan.py now puts one after the first turn). In the fresh-clone run of c6ab6e5 it passed
# in 137 s and lengthened `make test` by about 75 s, when CI took 18 min without it; it was
# opt-in until the suite had that room (CI about 15 min since), and runs in `make test` again.
def test_a_web_host_killed_mid_stream_loses_no_turn_doubles_nothing_and_the_drill_leaves_nothing(tmp_path):
    report = tmp_path / "drill.json"
    args = ["nice", "-n", "10", sys.executable, str(DRILL), "--short", "--json", str(report)]
    out = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-6000:]
    data = json.loads(report.read_text())
    [result] = data["results"]
    summary = data["summary"]
    assert result["fault"] == "web-kill"
    assert result["acked"] > 0 and result["lost"] == 0 and result["doubled"] == 0
    recalled, markers = result["markers"].split("/")
    assert int(markers) > 0 and recalled == markers
    assert summary["errors_outside_windows"] == 0 and summary["turns_unprocessed_at_end"] == 0
    assert summary["hosts_exited_by_themselves"] == []
    _assert_nothing_left(summary["run_id"], summary["temp_folder"])


def test_a_drill_interrupted_while_it_builds_removes_every_namespace_process_and_folder(tmp_path):
    log = tmp_path / "drill.log"
    # Not under `nice` like the streaming drill: it runs for the seconds its build takes, and at
    # nice 10 beside the rest of `make test` those seconds were 96 in CI (its llm worker loaded
    # its model whole while initdb waited for a core).
    with log.open("wb") as sink:
        drill = subprocess.Popen(
            [sys.executable, str(DRILL), "--short"], cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT
        )
    run_id = str(drill.pid)  # the drill's pid names what it makes
    try:
        deadline = time.monotonic() + 120
        while "primary up" not in log.read_text() and time.monotonic() < deadline and drill.poll() is None:
            time.sleep(0.2)
        assert "primary up" in log.read_text(), log.read_text()[-3000:]
        assert len(_namespaces(f"mhd{run_id}-")) > 5
        folders = re.findall(r"temp folder (\S+)", log.read_text())
        assert len(folders) == 1 and _processes_mentioning(folders[0])  # PostgreSQL runs in there
        drill.send_signal(signal.SIGINT)  # Ctrl-C
        drill.wait(timeout=120)
    finally:
        if drill.poll() is None:
            drill.kill()
    _assert_nothing_left(run_id, folders[0])
