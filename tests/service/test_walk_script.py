"""scripts/walk.py: the files a posted turn and a recall enter, in order (issue 35's walk)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.integration.stack import ROOT

# A process of its own with its own throwaway store: the test database is not read.
pytestmark = pytest.mark.no_database


def test_the_walks_follow_a_turn_from_its_route_to_the_index_and_a_recall_from_its_route_to_the_answer():
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "walk.py"), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    walks = {name: [row["file"] for row in rows] for name, rows in json.loads(run.stdout).items()}

    turn, recall = walks["posted turn"], walks["recall"]
    assert turn.index("facts/turns_api.py") < turn.index("facts/turn_state.py") < turn.index("recall/indexer.py")
    assert "facts/extraction/apply.py" in turn and "recall/services.py" not in turn
    assert recall.index("recall/api.py") < recall.index("recall/services.py") < recall.index("recall/answer.py")
    assert "facts/extraction/pipeline.py" not in recall
