"""What the many-hosts drill counts as a turn processed (scripts/hosts/checks.py). No root needed."""

from __future__ import annotations

import sys
from pathlib import Path

import psycopg

from facts.models import TurnState
from tests.base import private_postgres

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts/hosts"))

import checks  # noqa: E402

# States a turn can still leave: queued and extracting move on, a failed turn is retried.
ON_ITS_WAY = {TurnState.QUEUED, TurnState.EXTRACTING, TurnState.FAILED}


class _Store:
    def __init__(self, states: dict[tuple[str, str], str]) -> None:
        self.states = states

    def turn_states(self) -> dict[tuple[str, str], tuple[str, int]]:
        return {key: (state, 1) for key, state in self.states.items()}


def test_every_final_state_of_a_turn_counts_as_processed_and_no_other():
    # At the asked rates the drill waited its whole limit after every fault for a turn the
    # person's words had withheld (born final, never queued), and called each fault unrecovered.
    assert set(checks.FINISHED) == {state.value for state in TurnState} - {s.value for s in ON_ITS_WAY}


def test_an_acknowledged_turn_is_unfinished_while_on_its_way_or_missing_and_not_once_withheld():
    acked = [("u", "queued"), ("u", "withheld"), ("u", "done"), ("u", "missing")]
    store = _Store({("u", "queued"): "queued", ("u", "withheld"): "withheld", ("u", "done"): "done"})
    assert checks.unfinished(store, acked) == [("u", "queued"), ("u", "missing")]


def test_the_drills_reads_of_the_primary_keep_one_connection_and_open_another_after_a_restart():
    # A connection per read started a backend per read, twice a second while a fault recovered:
    # 300 CPU seconds of the primary's in a 9-minute run, taken from the hosts under test.
    with private_postgres("drill-store-") as server:
        store = checks.Store(server.get_uri())
        try:
            first = store._rows("SELECT pg_backend_pid()")[0][0]
            assert store._rows("SELECT pg_backend_pid()")[0][0] == first
            with psycopg.connect(server.get_uri(), autocommit=True) as other:
                other.execute("SELECT pg_terminate_backend(%s)", (first,))
            assert store._rows("SELECT pg_backend_pid()")[0][0] != first
        finally:
            store.close()
