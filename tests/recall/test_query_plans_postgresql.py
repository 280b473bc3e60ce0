"""On PostgreSQL, recall over facts and episodes reads one user's rows through an index.

Every SELECT of a recall is replayed under EXPLAIN with its own parameters and
sequential scans priced out (enable_seqscan = off), so a plan still holding a
Seq Scan on a table has no index to read it by. The planner would pick a Seq Scan
on tables this small anyway; what matters is that an index path exists for each
statement as the tables grow.
"""

from __future__ import annotations

import json

import pytest
from django.db import connection

from bench import recall_store
from recall.services import recall

pytestmark = pytest.mark.django_db

INDEX_TABLES = {f"recall_{side}{part}" for side in ("", "episode_") for part in ("fts", "doc", "vector")}


@pytest.fixture
def store(model):
    if connection.vendor != "postgresql":
        pytest.skip("EXPLAIN of PostgreSQL; tests/recall/test_query_plans.py reads SQLite's plans")
    builder = recall_store.Builder(10, 1, episodes_per_user=40)
    builder.grow(150)
    return builder.store


def _selects_of(run) -> list[tuple[str, object]]:
    seen: list[tuple[str, object]] = []

    def record(execute, sql, params, many, context):
        if not many and sql.lstrip().upper().startswith(("SELECT", "WITH")):
            seen.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        run()
    return seen


def _scans(node: dict) -> list[tuple[str, str]]:
    found = [(node["Node Type"], node["Relation Name"])] if "Relation Name" in node else []
    for child in node.get("Plans", []):
        found += _scans(child)
    return found


def _plan(sql: str, params) -> list[tuple[str, str]]:
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
        plan = cursor.fetchone()[0]
    plan = json.loads(plan) if isinstance(plan, str) else plan
    return _scans(plan[0]["Plan"])


@pytest.mark.parametrize(("mode", "as_of"), [("hybrid", None), ("lexical", None), ("vector", None)])
def test_recall_reads_the_index_tables_through_indexes_only(store, mode, as_of):
    user, texts = store.measured[0]
    words = texts[-1].rstrip(".").split()[1:4]
    query = f"what did I say in March 2024 about {' '.join(words)}?"
    selects = _selects_of(
        lambda: recall(user=user, query=query, k=10, mode=mode, as_of=as_of, sources=("facts", "episodes"))
    )
    statements = " ".join(sql for sql, _ in selects)
    assert "recall_episode_vector" in statements or mode == "lexical"
    assert "recall_episode_fts" in statements or mode == "vector"
    for sql, params in selects:
        for node, table in _plan(sql, params):
            if table in INDEX_TABLES or table in ("facts_fact", "facts_turn"):
                assert node != "Seq Scan", (table, sql)


@pytest.mark.parametrize(("mode", "as_of"), [("hybrid", None), ("hybrid", "2024-06-01T00:00:00Z")])
def test_recall_plans_each_read_over_the_users_partition_only(store, mode, as_of):
    # A read without the user in its WHERE clause is planned and run over every partition: the
    # answer's entity names were, and cost 2.25 ms of planning at 64 partitions (measurements §13).
    user, texts = store.measured[0]
    query = f"what did I say about {' '.join(texts[-1].rstrip('.').split()[1:4])}?"
    selects = _selects_of(
        lambda: recall(user=user, query=query, k=10, mode=mode, as_of=as_of, sources=("facts", "episodes"))
    )
    for sql, params in selects:
        partitions: dict[str, set[str]] = {}
        for _, table in _plan(sql, params):
            parent, _, number = table.rpartition("_p")
            if number.isdigit():
                partitions.setdefault(parent, set()).add(table)
        assert all(len(tables) == 1 for tables in partitions.values()), (partitions, sql)
