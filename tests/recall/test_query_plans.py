"""Recall over facts and episodes reads one user's rows only: no statement scans a whole table.

Every SELECT a recall runs is replayed under EXPLAIN QUERY PLAN with its own
parameters (https://www.sqlite.org/eqp.html). A plain table may only be
searched through an index or its primary key; the FTS5 tables are virtual
tables read through MATCH, and every MATCH term carries the user's namespace
(recall/query.py), so a lexical read follows that user's posting lists only.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection

from bench import recall_store
from facts.models import Fact, Turn
from recall.query import namespace
from recall.services import recall

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite_only]

_QUOTED = re.compile(r'"([^"]*)"')


@pytest.fixture
def store(model):
    """Three users of 10 facts and 40 episodes each (bench_recall's builder), the first with real vectors."""
    builder = recall_store.Builder(10, 1, episodes_per_user=40)
    builder.grow(150)
    # The measured user's facts were said in their episodes, so the reads of a fact's source turn
    # run too (through_turns reads the keyed facts only when a candidate has a source turn).
    user = builder.store.measured[0][0]
    turns = list(Turn.objects.filter(user=user).order_by("pk").values_list("pk", flat=True))
    facts = Fact.objects.filter(user=user).order_by("pk").values_list("pk", flat=True)
    for fact_id, turn_id in zip(facts, turns, strict=False):
        Fact.objects.filter(pk=fact_id).update(source_turn_id=turn_id)
    return builder.store


def selects_of(run) -> list[tuple[str, tuple]]:
    seen: list[tuple[str, tuple]] = []

    def record(execute, sql, params, many, context):
        if not many and sql.lstrip().upper().startswith("SELECT"):
            seen.append((sql, tuple(params or ())))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        run()
    return seen


def plan_of(sql: str, params: tuple) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        return [row[3] for row in cursor.fetchall()]


@pytest.mark.parametrize(
    ("mode", "as_of", "through_turns"),
    [
        ("hybrid", None, False),
        ("lexical", None, False),
        ("vector", None, False),
        ("hybrid", "2024-06-01T00:00:00Z", False),
        # Facts ranked through their turns: two more reads (recall/through_turns.py).
        ("hybrid", None, True),
        ("hybrid", "2024-06-01T00:00:00Z", True),
    ],
)
def test_recall_over_both_sources_never_scans_a_whole_table(store, mode, as_of, through_turns, settings):
    settings.MEMORY_RECALL_TURN_KEYS = "words+facts" if through_turns else "words"
    settings.MEMORY_RECALL_FACTS_THROUGH_TURNS = through_turns
    user, texts = store.measured[0]
    words = texts[-1].rstrip(".").split()[1:4]  # words of one of the user's episodes
    query = f"what did I say in March 2024 about {' '.join(words)}?"  # a named time: the time lists run too
    selects = selects_of(
        lambda: recall(user=user, query=query, k=10, mode=mode, as_of=as_of, sources=("facts", "episodes"))
    )
    tables = " ".join(sql for sql, _ in selects)
    assert "recall_episode_vector" in tables or mode == "lexical"
    assert "recall_episode_fts" in tables or mode == "vector"
    assert "facts_turn" in tables
    # The read of the facts a turn's key holds (recall.through_turns.drop_keyed_facts).
    assert ('"source_turn_id" IN (SELECT' in tables) is through_turns
    for sql, params in selects:
        for step in plan_of(sql, params):
            # SCAN CONSTANT ROW: a SELECT of scalar subqueries (the SQLite engine's term counts).
            if step.startswith("SCAN") and step != "SCAN CONSTANT ROW":
                assert "VIRTUAL TABLE" in step, (step, sql)
        if " MATCH " in sql:
            terms = [t for p in params if isinstance(p, str) for t in _QUOTED.findall(p)]
            assert terms and all(t.startswith(namespace(user.pk)) for t in terms), (sql, params)
