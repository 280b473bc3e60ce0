"""bench_ingest: turns posted through the API of a throwaway `make run` set-up, every one processed."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

DATA = Path(__file__).parent / "data" / "locomo_tiny.json"

pytestmark = pytest.mark.integration


def test_a_paced_backlog_is_posted_processed_and_reported(tmp_path):
    out = tmp_path / "report.json"
    printed = StringIO()
    call_command("bench_ingest", "--data", str(DATA), "--turns", "7", "--rate", "4", "--json", str(out), stdout=printed)
    report = json.loads(out.read_text())
    assert report["posts"]["statuses"] == {"202": 7}
    assert report["posts"]["requests"] == 7 and report["posts"]["slower_than_1s"] == 0
    assert report["open_at_end"]["unfinished_turns"] == 0
    assert sum(report["states"].values()) == 7 and set(report["states"]) <= {"done", "skipped"}
    assert report["worker_restarts"] == 0
    # The probe read a turn's status and recalled while the backlog ran; every answer a 200.
    assert report["probes"]["requests"] >= 2 and set(report["probes"]["statuses"]) == {"200"}
    assert report["last_turn_finished_after_last_post_s"] is not None
    assert "7 turns posted (4.0 turns/s)" in printed.getvalue()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--turns", "8"], "holds 7 turns"),
        (["--turns", "0"], "must be positive"),
        (["--rate", "-1"], "--rate at least 0"),
        (["--clients", "0"], "must be positive"),
        (["--json", "/no/such/folder/out.json"], "does not exist"),
    ],
)
def test_bad_options_are_refused_before_anything_starts(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("bench_ingest", "--data", str(DATA), *args, stdout=StringIO())


def test_a_missing_data_file_is_refused(tmp_path):
    with pytest.raises(CommandError, match="does not exist"):
        call_command("bench_ingest", "--data", str(tmp_path / "none.json"), stdout=StringIO())
