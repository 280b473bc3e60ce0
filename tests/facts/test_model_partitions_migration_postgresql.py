"""On PostgreSQL: migrations facts 0010 and profiles 0002 turn a store's whole word-holding
model tables into tables hash-partitioned by user, keeping every row, the ids' sequence and
the foreign keys (composite), and their reverse makes them whole again
(core/db/partitioned_tables.py, docs/deployment.md "What erased means on PostgreSQL").
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from facts import services
from facts.models import Fact, Turn
from tests.facts.dashboard_helpers import seed_everything
from tests.partitions import shape

pytestmark = pytest.mark.django_db(transaction=True)

TABLES = ["facts_turn", "facts_fact", "facts_facthistory", "facts_entity", "facts_edge", "profiles_profile"]
WHOLE = [("facts", "0009_memory_mode_and_withheld_turns"), ("profiles", "0001_initial")]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("the partitions are PostgreSQL's; SQLite's tables are unchanged")


def _migrate(targets: list[tuple[str, str]]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def _latest() -> list[tuple[str, str]]:
    executor = MigrationExecutor(connection)
    return [node for node in executor.loader.graph.leaf_nodes() if node[0] in ("facts", "profiles")]


def _rows() -> dict[str, list[tuple]]:
    rows = {}
    with connection.cursor() as cursor:
        for table in TABLES:
            cursor.execute(f"SELECT * FROM {table} ORDER BY id")
            rows[table] = [tuple(str(v) for v in row) for row in cursor.fetchall()]
    return rows


def test_the_model_partition_migrations_keep_every_row_and_id_and_their_reverse_undoes_them(alice):
    latest = _latest()
    for n in range(4):
        seed_everything(alice.tenant, f"user-{n}")
    before = _rows()
    assert all(before.values()), before
    try:
        _migrate(WHOLE)
        assert set(shape(TABLES).values()) == {("r", 0)}, shape(TABLES)
        assert _rows() == before
        _migrate(latest)
        assert shape(TABLES) == {table: ("p", settings.MEMORY_POSTGRES_PARTITIONS) for table in TABLES}
        assert _rows() == before
    finally:
        _migrate(latest)
    # The sequence went on from the old table's: a new row's id is above every old one.
    user = Fact.objects.first().user
    fact = services.fact_store(user=user, text="User owns a red kayak.", actor=services.Actor("staff", "ines")).fact
    assert fact.pk > max(int(row[0]) for row in before["facts_fact"])
    # A reference to another user's turn is refused (composite foreign key), as a dangling one was.
    other = Turn.objects.exclude(user=user).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        Fact.objects.filter(pk=fact.pk).update(source_turn=other)
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
