"""eval_pipeline end to end on a tiny LoCoMo-format file: a real server, a real worker, the
replay extractor, a throwaway database; the report's counts are those the file implies."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

DATA = Path(__file__).parent / "data" / "locomo_tiny.json"


def test_eval_pipeline_replays_a_conversation_and_accounts_for_every_observation(tmp_path):
    out = tmp_path / "report.json"
    call_command("eval_pipeline", "--data", str(DATA), "--json", str(out), "--k", "1,5", "--stall", "300")
    report = json.loads(out.read_text())
    assert (report["conversations"], report["turns"], report["observations"]) == (1, 7, 5)
    # "Hey Bo!", "Thanks!" and "wow!" carry nothing; the four other turns reach the extractor.
    assert report["gate"]["by_reason"] == {"greeting": 1, "thanks": 1, "reaction": 1}
    assert report["llm_calls"] == 4
    # One observation cites only "wow!": lost to the gate. The plan cites D2:3 and D2:1 and is
    # stated with D2:1, its first turn, so it is kept.
    assert report["gate"]["skipped_with_observation"] == 1
    assert report["lost"]["by_cause"] == {"gate: reaction": 1}
    assert report["lost"]["total"] == 1 and report["lost"]["share"] == 0.2
    assert report["open_at_end"] == {"unfinished_turns": 0, "unindexed_facts": 0, "worker_restarts": 0}
    assert report["questions"] == 2  # category 5 has no evidence to find
    pipeline, direct = report["recall"]["pipeline"]["hybrid"], report["recall"]["direct_load"]["hybrid"]
    assert pipeline["recall@5"] == direct["recall@5"] == 1.0
    assert report["turn_ms"]["processing"]["p50"] is not None


def test_eval_pipeline_refuses_a_missing_file_before_starting_anything(tmp_path):
    with pytest.raises(CommandError, match="does not exist"):
        call_command("eval_pipeline", "--data", str(tmp_path / "none.json"))


def test_the_gate_only_analysis_counts_skipped_turns_and_their_observations():
    out = StringIO()
    call_command("eval_pipeline", "--data", str(DATA), "--gate-only", stdout=out)
    result = json.loads(out.getvalue())
    assert result["skipped"] == 3 and result["skipped_with_observation"] == 1
    assert result["observations_lost"] == 1 and result["turns"] == 7
