"""On PostgreSQL: `manage.py repartition --partitions N` gives a live store's user-data tables
(the recall index and the Django-model tables that hold a person's words) another count of
hash partitions by user, keeping every row, id sequence, index, constraint, foreign key and
statistics target, in one transaction that a failure rolls back whole; and `manage.py check`
warns when the store's count is not the setting's, or a partition is larger than a compaction
rewrite passes in about 100 ms (issue 33 item 3; memory_service/management/commands/repartition.py,
core/checks.py, docs/deployment.md "What erased means on PostgreSQL").
"""

from __future__ import annotations

import io

import pytest
from django.conf import settings
from django.core import checks
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import override_settings

from core.db import partitioned_tables
from facts import privacy, services
from facts.models import Fact, MemoryUser, Turn
from memory_service.management.commands import repartition
from recall import indexer
from recall import services as recall_services
from recall.engines.postgresql import compactor, ddl
from tests.facts.dashboard_helpers import seed_everything
from tests.partitions import shape

pytestmark = pytest.mark.django_db(transaction=True)

STAFF = services.Actor("staff", "ines")
QUERY = "what does the user work with"


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("the partitions are PostgreSQL's; SQLite's tables are whole")


@pytest.fixture
def back_to_the_setting():
    """The rest of the run's tests find the store at the setting's count again."""
    yield
    _repartition(settings.MEMORY_POSTGRES_PARTITIONS)


def _repartition(n: int, **options) -> str:
    out = io.StringIO()
    call_command("repartition", partitions=n, yes=True, stdout=out, stderr=io.StringIO(), **options)
    return out.getvalue()


def _tables() -> list[str]:
    return ddl.index_tables(connection) + partitioned_tables.MODEL_TABLES


def _store(tenant, users: int) -> list[MemoryUser]:
    """Users with one of every row (facts, history, turns, entities, edges, profiles), indexed
    with vectors, and the slot-b vector tables holding a copy (a model switch's)."""
    for n in range(users):
        seed_everything(tenant, f"user-{n}")
    indexer.index_items(
        list(Fact.objects.values_list("pk", flat=True)), list(Turn.objects.values_list("pk", flat=True)), vectors="here"
    )
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO recall_vector_b SELECT * FROM recall_vector")
        cursor.execute("INSERT INTO recall_episode_vector_b SELECT * FROM recall_episode_vector")
    return list(MemoryUser.objects.filter(tenant=tenant).order_by("pk"))


def _rows() -> dict[str, list[tuple]]:
    rows = {}
    with connection.cursor() as cursor:
        for table in _tables():
            cursor.execute(f"SELECT * FROM {table}")
            rows[table] = sorted(tuple(str(v) for v in row) for row in cursor.fetchall())
    return rows


def _schema() -> dict[str, set]:
    """Everything of the tables but their partitions: indexes, constraints (and the foreign
    keys pointing at them), defaults, statistics targets, the id sequences' positions."""
    tables = _tables()
    with connection.cursor() as cursor:
        cursor.execute("SELECT tablename, indexdef FROM pg_indexes WHERE tablename = ANY(%s)", [tables])
        indexes = set(cursor.fetchall())
        cursor.execute(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE conparentid = 0 AND (conrelid::regclass::text = ANY(%s) OR confrelid::regclass::text = ANY(%s))",
            [tables, tables],
        )
        constraints = set(cursor.fetchall())
        cursor.execute(
            "SELECT table_name, column_name, column_default, is_nullable FROM information_schema.columns "
            "WHERE table_name = ANY(%s)",
            [tables],
        )
        columns = set(cursor.fetchall())
        cursor.execute(
            "SELECT attrelid::regclass::text, attname, attstattarget FROM pg_attribute "
            "WHERE attrelid::regclass::text = ANY(%s) AND attnum > 0 AND attstattarget >= 0",
            [tables],
        )
        targets = set(cursor.fetchall())
        cursor.execute(
            "SELECT sequencename, last_value FROM pg_sequences WHERE sequencename = ANY(%s)",
            [[f"{t}_id_seq" for t in partitioned_tables.MODEL_TABLES]],
        )
        sequences = set(cursor.fetchall())
    assert len(sequences) == len(partitioned_tables.MODEL_TABLES) and targets, (sequences, targets)
    return {
        "indexes": indexes,
        "constraints": constraints,
        "columns": columns,
        "targets": targets,
        "sequences": sequences,
    }


def _partitions_like_their_table(n: int) -> None:
    """Each table has n partitions, each with its table's indexes and statistics targets, and
    each row is in the partition PostgreSQL's hash of its user names."""
    assert shape(_tables()) == {table: ("p", n) for table in _tables()}
    with connection.cursor() as cursor:
        for table in _tables():
            cursor.execute(
                f"SELECT count(*) FROM {table} t WHERE NOT satisfies_hash_partition("
                "%s::regclass, %s, substring(t.tableoid::regclass::text from '_p([0-9]+)$')::int, t.user_id)",
                [table, n],
            )
            assert cursor.fetchone()[0] == 0, f"{table}: rows outside the partition their user hashes to"
            cursor.execute(
                "SELECT (SELECT count(*) FROM pg_index WHERE indrelid = i.inhrelid), "
                "(SELECT count(*) FROM pg_attribute a WHERE a.attrelid = i.inhrelid AND a.attstattarget >= 0) "
                "FROM pg_inherits i WHERE i.inhparent = %s::regclass",
                [table],
            )
            per_partition = set(cursor.fetchall())
            cursor.execute(
                "SELECT (SELECT count(*) FROM pg_index WHERE indrelid = %s::regclass), "
                "(SELECT count(*) FROM pg_attribute a WHERE a.attrelid = %s::regclass AND a.attstattarget >= 0)",
                [table, table],
            )
            assert per_partition == {cursor.fetchone()}, f"{table}: a partition lacks an index or a target"


def _recalled(users: list[MemoryUser]) -> list[list[int]]:
    return [[hit.fact.pk for hit in recall_services.recall(user=u, query=QUERY, log=False).items] for u in users]


def _relations(user: MemoryUser) -> dict[str, str]:
    """table -> the partition holding `user`'s rows of it (tables where the user has rows)."""
    found = {}
    with connection.cursor() as cursor:
        for table in _tables():
            cursor.execute(f"SELECT DISTINCT tableoid::regclass::text FROM {table} WHERE user_id = %s", [user.pk])
            names = [row[0] for row in cursor.fetchall()]
            assert len(names) <= 1, (table, names)
            found.update({table: names[0]} if names else {})
    return found


def test_repartition_8_16_4_keeps_every_row_key_and_id_places_rows_by_hash_and_recall_and_erasure_work(
    alice, back_to_the_setting
):
    users = _store(alice.tenant, 6)
    _repartition(8)  # the run's count is the setting's (tests/on_postgres.py): start from 8 whatever it is
    rows, schema, recalled = _rows(), _schema(), _recalled(users)
    assert all(rows.values()), [table for table, found in rows.items() if not found]
    assert all(recalled), recalled

    for n in (16, 4):
        out = _repartition(n)
        assert all(f"rebuilt {table}" in out for table in _tables()), out  # progress per table
        _partitions_like_their_table(n)
        assert _rows() == rows
        assert _schema() == schema
        assert _recalled(users) == recalled

    # The id sequences went on where they stood: a new row's id is above every old one.
    victim = users[1]
    fact = services.fact_store(user=victim, text="User owns a red kayak.", actor=STAFF).fact
    assert fact.pk > max(Fact.objects.exclude(pk=fact.pk).values_list("pk", flat=True))

    # An erase's pass still rewrites only the erased user's slice of each table.
    bystander = next(u for u in users if _relations(u)["facts_fact"] != _relations(victim)["facts_fact"])
    victims, bystanders = _relations(victim), _relations(bystander)
    assert set(victims) == set(_tables()), set(_tables()) - set(victims)
    privacy.user_erase(user=victim, actor=STAFF)
    report = compactor.compact_pass()
    assert report is not None and report.complete, report
    for table, relation in victims.items():
        assert table not in report.held_seconds, f"{table} was rewritten whole"
        assert [name for name in report.held_seconds if name.startswith(f"{table}_p")] == [relation]
    assert not (set(bystanders.values()) - set(victims.values())) & set(report.held_seconds)
    assert _recalled([bystander]) == [recalled[users.index(bystander)]]


def test_a_repartition_that_fails_half_way_changes_nothing(alice, back_to_the_setting):
    _store(alice.tenant, 3)
    _repartition(8)
    rows, schema = _rows(), _schema()
    out = io.StringIO()
    # The last table's rebuild fails (its old form's name is taken), after every other was rebuilt.
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE profiles_profile_old (id int)")
    try:
        with pytest.raises(CommandError, match="rolled back: nothing was changed"):
            call_command("repartition", partitions=16, yes=True, stdout=out, stderr=io.StringIO())
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE profiles_profile_old")
    assert "rebuilt recall_fts" in out.getvalue() and "rebuilt facts_edge" in out.getvalue(), out.getvalue()
    _partitions_like_their_table(8)
    assert _rows() == rows
    assert _schema() == schema


def test_repartition_asks_for_yes_above_a_few_mb_and_changes_nothing_without_it(
    alice, back_to_the_setting, monkeypatch
):
    _store(alice.tenant, 1)
    _repartition(8)
    monkeypatch.setattr(repartition, "ASK_ABOVE_BYTES", 0)
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match="--yes"):
        call_command("repartition", partitions=16, stdout=out, stderr=err)
    assert "facts_fact" in out.getvalue() and "-> 16" in out.getvalue()  # the estimate: every table's size
    assert "waits until the rebuild commits" in err.getvalue()
    _partitions_like_their_table(8)
    # A server whose lock table cannot hold the rebuild's locks is named before anything changes.
    monkeypatch.setattr(repartition, "LOCK_SHARE", 0.001)
    with pytest.raises(CommandError, match="Set max_locks_per_transaction to"):
        _repartition(16)
    _partitions_like_their_table(8)


def _partition_warnings() -> list[checks.CheckMessage]:
    found = checks.run_checks(include_deployment_checks=False)
    return [m for m in found if m.id in ("memory_service.W004", "memory_service.W005")]


def test_check_warns_when_the_store_has_another_count_or_a_slice_a_rewrite_takes_100_ms_and_is_quiet_when_fine(
    alice, back_to_the_setting
):
    _store(alice.tenant, 1)
    _repartition(settings.MEMORY_POSTGRES_PARTITIONS)
    assert _partition_warnings() == []

    _repartition(16 if settings.MEMORY_POSTGRES_PARTITIONS != 16 else 8)
    (count,) = _partition_warnings()
    assert count.id == "memory_service.W004"
    assert f"repartition --partitions {settings.MEMORY_POSTGRES_PARTITIONS}" in count.hint
    _repartition(settings.MEMORY_POSTGRES_PARTITIONS)
    assert _partition_warnings() == []

    # About 12 MB of index rows over 100,000 users: about 1.5 MB a slice at 8 partitions.
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO recall_fts (user_id, term, doc_id, tf) "
            "SELECT 1000000 + g % 100000, 'term' || g, g, 1.0 FROM generate_series(1, 100000) g"
        )
    assert _partition_warnings() == []  # under the default 5 MB
    largest = max(t.largest_bytes for t in partitioned_tables.store_layout()) / 2**20
    # A limit that 12 such slices would meet: the warning names 16 (a power of two).
    with override_settings(MEMORY_POSTGRES_PARTITION_WARN_MB=largest * settings.MEMORY_POSTGRES_PARTITIONS / 12):
        (size,) = _partition_warnings()
        assert size.id == "memory_service.W005" and "recall_fts_p" in size.msg, size.msg
        advised = int(size.hint.split("repartition --partitions ")[1].split("`")[0])
        assert advised > settings.MEMORY_POSTGRES_PARTITIONS
        # The count it names brings every slice under the limit.
        _repartition(advised)
        assert [m.id for m in _partition_warnings()] == ["memory_service.W004"]
