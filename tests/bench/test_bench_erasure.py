"""bench_erasure: forgets and the compaction pass on PostgreSQL, on a tiny store."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_refuses_sqlite_and_says_what_to_point_it_at():
    if connection.vendor != "sqlite":
        pytest.skip("the refusal is SQLite's")
    with pytest.raises(CommandError, match="DATABASE_URL at a scratch PostgreSQL"):
        call_command("bench_erasure", "--size-mb", "1")


@pytest.mark.slow
def test_a_tiny_run_forgets_through_the_write_path_and_the_pass_removes_every_marker(tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("measures PostgreSQL")
    out = tmp_path / "erasure.json"
    call_command("bench_erasure", "--size-mb", "20", "--forgets", "5", "--legacy", "1", "--json", str(out))
    report = json.loads(out.read_text())
    # Every data file of the database, pg_statistic's too (the pass's ANALYZEs replaced sampled words).
    assert report["pass_complete"] and report["marker_files_after_pass"] == 0, report["marker_relations_after_pass"]
    assert report["forget_ms"]["n"] == 5 and len(report["legacy_forget_seconds"]) == 1
    assert {"baseline", "forget_stream", "compaction_pass"} <= set(report["reader"])
    # One victim: the pass rewrote its slice of each index table (8 with the model-switch
    # tables) and of the six facts and profiles tables partitioned by user, and the whole tables.
    assert report["longest_hold"]["partition"]["rewrites"] in (12, 14)
    assert report["longest_hold"]["whole_table"]["relation"] in report["held_seconds"]
    assert report["other_tenant_recall_during_pass"] == report["reader"]["compaction_pass"]
