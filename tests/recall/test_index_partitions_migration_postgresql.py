"""On PostgreSQL: migration recall 0009 turns a store's whole recall index tables (migration 0008's
form) into tables hash-partitioned by user, keeping every row, and its reverse makes them whole
again (recall/engines/postgresql/ddl.py, docs/deployment.md "What erased means on PostgreSQL").
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from facts import services
from recall import indexer
from recall import services as recall_services
from recall.engines.postgresql import ddl, vec
from tests.facts.dashboard_helpers import memory_user
from tests.partitions import shape

pytestmark = pytest.mark.django_db(transaction=True)

STAFF = services.Actor("staff", "ines")
TABLES = [table for side in ("recall_", "recall_episode_") for table in (f"{side}fts", f"{side}doc", f"{side}vector")]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("the partitions are PostgreSQL's; SQLite keeps its FTS5 and vector tables")


def _migrate(target: str) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([("recall", target)])


def _rows() -> dict[str, list[tuple]]:
    rows = {}
    with connection.cursor() as cursor:
        for table in TABLES:
            cursor.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3")
            rows[table] = [tuple(str(v) for v in row) for row in cursor.fetchall()]
    return rows


def _latest() -> str:
    executor = MigrationExecutor(connection)
    return max(name for app, name in executor.loader.graph.leaf_nodes() if app == "recall")


def test_the_partition_migration_converts_a_whole_index_keeping_every_row_and_its_reverse_undoes_it(alice):
    latest = _latest()
    users = [memory_user(alice.tenant, f"user-{n}") for n in range(6)]
    facts = [
        services.fact_store(user=user, text=f"User {n} lives in Quillborough.", actor=STAFF).fact
        for n, user in enumerate(users)
    ]
    indexer.index_items([f.pk for f in facts], [], vectors="here")
    before = _rows()
    assert len(before["recall_vector"]) == len(facts) and before["recall_fts"]

    try:
        # A store made before the partitions (migration 0008's whole tables), with its rows.
        _migrate("0008_postgresql_index")
        assert set(shape(TABLES).values()) == {("r", 0)}, shape(TABLES)
        assert _rows() == before

        _migrate("0009_postgresql_partitions")
        assert shape(TABLES) == {table: ("p", ddl.partition_count()) for table in TABLES}
        assert _rows() == before
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(DISTINCT tableoid) FROM recall_fts")
            assert cursor.fetchone()[0] > 1, "every user's rows are in one partition"
    finally:
        _migrate(latest)
    # Recall reads the users' rows in their partitions.
    hits = recall_services.recall(user=users[3], query="where does the user live", log=False).items
    assert [hit.fact.pk for hit in hits] == [facts[3].pk]
    # A vector written again lands on its (user, id) key, not beside it.
    (model, digest), vector = vec.indexed([facts[3].pk])[facts[3].pk], vec.vectors([facts[3].pk])[facts[3].pk]
    vec.upsert([(facts[3].pk, users[3].pk, model, digest, vector.tobytes())])
    assert _rows() == before
