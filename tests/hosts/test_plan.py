"""What the many-hosts drill posts (scripts/hosts/plan.py): turns in every checkout, also a
fresh clone without the LoCoMo dev data beside it. No root needed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts/hosts"))

import plan  # noqa: E402


def test_a_checkout_without_the_shared_data_still_gives_the_drill_the_turns_it_asks_for(monkeypatch, tmp_path):
    # The fresh-clone CI run of 2026-11-27 had no ../shared: the plan was empty, the drill
    # posted no turn and waited 240 s for one.
    monkeypatch.setattr(plan, "SHARED_DATA", tmp_path / "absent")
    data = plan.default_data()
    assert data == plan.REPO_DATA
    posts = plan.build_plan(data, "7", 200)
    markers = [p for p in posts if p.marker]
    assert len(posts) >= 200
    # Every post is a new turn to the API (the conversations again under new turn ids), so
    # none is taken for a client's retry of another.
    assert len({(p.user, p.turn_id) for p in posts}) == len(posts)
    assert len(markers) >= 18 and len({p.marker for p in markers}) == len(markers)
    assert all(p.text == f"I use {p.marker}." for p in markers)


def test_a_data_folder_without_conversations_stops_the_drill_with_the_reason(tmp_path):
    (tmp_path / "notes.json").write_text('{"qa": []}')
    with pytest.raises(SystemExit, match="no LoCoMo conversation"):
        plan.build_plan(tmp_path, "7", 10)
