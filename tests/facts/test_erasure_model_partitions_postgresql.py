"""On PostgreSQL: the Django-model tables that hold a person's words (turns, facts, their
history, entities, edges, profile versions) are hash-partitioned by user like the recall
index, so the compaction pass rewrites and locks only the erased user's slice of each and
another user's recall does not wait for it (issue 33 item 3; facts/migrations/0010,
profiles/migrations/0002, core/db/partitioned_tables.py). Before, `facts_fact` was
rewritten whole under ACCESS EXCLUSIVE and every tenant's recall waited for it.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection

from facts import privacy, services
from facts.models import DeletionReceipt, Fact, MemoryUser, Turn
from recall import indexer
from recall import services as recall_services
from recall.engines.postgresql import compactor
from tests.db_files import postgres_data_files
from tests.facts.dashboard_helpers import seed_everything
from tests.partitions import relation_of

pytestmark = pytest.mark.django_db(transaction=True)

STAFF = services.Actor("staff", "ines")
WORD_TABLES = ("facts_turn", "facts_fact", "facts_facthistory", "facts_entity", "facts_edge", "profiles_profile")


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("partitions and VACUUM (FULL) are PostgreSQL's")


def _victim_and_bystander(tenant) -> tuple[MemoryUser, MemoryUser, dict[str, str]]:
    """A victim and a bystander (each with one of every row) whose facts are in different
    relations (with 64 partitions, one of the first ten users almost surely is)."""
    markers = seed_everything(tenant, "victim")
    victim = MemoryUser.objects.get(tenant=tenant, external_id="victim")
    for n in range(10):
        seed_everything(tenant, f"bystander-{n}")
        bystander = MemoryUser.objects.get(tenant=tenant, external_id=f"bystander-{n}")
        if relation_of("facts_fact", bystander) != relation_of("facts_fact", victim):
            indexer.index_items(
                list(Fact.objects.values_list("pk", flat=True)), list(Turn.objects.values_list("pk", flat=True))
            )
            return victim, bystander, markers
    raise AssertionError("every user's facts are in one relation: facts_fact is not partitioned by user")


def test_the_tables_holding_a_persons_words_are_partitioned_by_user_and_ids_stay_globally_unique(alice):
    with connection.cursor() as cursor:
        for table in WORD_TABLES:
            cursor.execute("SELECT relkind FROM pg_class WHERE oid = %s::regclass", [table])
            assert cursor.fetchone()[0] == "p", f"{table} is not partitioned"
            cursor.execute("SELECT count(*) FROM pg_inherits WHERE inhparent = %s::regclass", [table])
            assert cursor.fetchone()[0] == settings.MEMORY_POSTGRES_PARTITIONS
    victim, bystander, _ = _victim_and_bystander(alice.tenant)
    ids = list(Fact.objects.values_list("pk", flat=True))
    assert len(ids) == len(set(ids))  # one sequence for every partition
    fact = Fact.objects.filter(user=bystander).first()
    assert Fact.objects.get(pk=fact.pk).uuid == fact.uuid  # the ORM's lookups by id as before
    assert Fact.objects.get(uuid=fact.uuid).pk == fact.pk


def test_a_pass_after_an_erase_rewrites_only_the_erased_users_slice_of_the_facts_tables(alice):
    victim, bystander, markers = _victim_and_bystander(alice.tenant)
    victims = {table: relation_of(table, victim) for table in WORD_TABLES}
    bystanders = {table: relation_of(table, bystander) for table in WORD_TABLES}
    receipt = privacy.user_erase(user=victim, actor=STAFF)

    report = compactor.compact_pass()
    assert report is not None and report.complete, report

    for table in WORD_TABLES:
        assert table not in report.held_seconds, f"{table} was rewritten whole"
        assert victims[table] in report.held_seconds, f"{victims[table]} (the victim's) was not rewritten"
        assert bystanders[table] not in report.held_seconds
        rewritten = [name for name in report.held_seconds if name.startswith(f"{table}_p")]
        assert rewritten == [victims[table]]
    files = postgres_data_files()
    assert {kind: m for kind, m in markers.items() if any(m.encode() in data for data in files.values())} == {}
    assert DeletionReceipt.objects.get(pk=receipt.pk).bytes_gone_at == report.finished_at


def test_another_users_recall_is_not_blocked_while_the_pass_holds_the_erased_users_slices(alice, other_session):
    victim, bystander, _ = _victim_and_bystander(alice.tenant)
    plan = compactor.relations_to_rewrite({victim.pk})
    assert not {r.name for r in plan} & set(WORD_TABLES)
    # The lock VACUUM (FULL) takes on what it rewrites, on every relation of the pass at once.
    with other_session.cursor() as cursor:
        cursor.execute("BEGIN")
        for relation in plan:
            cursor.execute(f"LOCK TABLE {relation.name} IN ACCESS EXCLUSIVE MODE")
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '100ms'")
    try:
        result = recall_services.recall(user=bystander, query="what does the user work with", log=False)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")
    assert result.items and {hit.fact.user_id for hit in result.items} == {bystander.pk}


def test_analyze_samples_no_words_so_a_slice_an_erasure_empties_keeps_none_in_its_statistics(alice):
    """ANALYZE of a partition an erasure emptied leaves its old column statistics (a live
    pg_statistic row): the word columns are never sampled (facts/migrations/0011)."""
    victim, _, markers = _victim_and_bystander(alice.tenant)
    relations = {table: relation_of(table, victim) for table in WORD_TABLES}
    with connection.cursor() as cursor:
        for relation in relations.values():
            cursor.execute(f"ANALYZE {relation}")
        cursor.execute(
            "SELECT tablename, attname, concat(most_common_vals::text, histogram_bounds::text) FROM pg_stats "
            "WHERE tablename = ANY(%s)",
            [list(relations.values())],
        )
        sampled = cursor.fetchall()
    leaked = [(table, column) for table, column, values in sampled for m in markers.values() if m in (values or "")]
    assert leaked == []
    assert {column for _, column, _ in sampled} >= {"user_id", "id"}  # the other columns are still sampled
