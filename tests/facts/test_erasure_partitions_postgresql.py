"""On PostgreSQL: the recall index tables are hash-partitioned by user, and the compaction pass
rewrites (and locks) only the partitions an erased user's rows were in, so another user's
recall does not wait for it (issue 33 item 3; recall/engines/postgresql/ddl.py,
recall/engines/postgresql/compactor.py). Before, each table was one relation: the pass rewrote all of
it under ACCESS EXCLUSIVE and every tenant's recall waited for the whole rewrite.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection

from facts import services
from facts.models import DeletionReceipt, Fact, MemoryUser, PendingCompaction
from recall import indexer
from recall import services as recall_services
from recall.engines.postgresql import compactor
from tests.facts.dashboard_helpers import memory_user
from tests.partitions import relation_of

pytestmark = pytest.mark.django_db(transaction=True)

STAFF = services.Actor("staff", "ines")
INDEX_TABLES = ("recall_fts", "recall_doc", "recall_vector")
# A partition of an index table, or an index of one: its partition's name.
PARTITION = re.compile(r"^(recall_(?:episode_)?(?:fts|doc|vector)_p\d+)(?:_.*)?$")


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("partitions and VACUUM (FULL) are PostgreSQL's")


def _files() -> dict[str, int]:
    """Every relation (table, partition, index) of the recall index -> its file number."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, c.relfilenode FROM pg_class c "
            "WHERE c.relname LIKE 'recall\\_%%' AND c.relkind IN ('r', 'i') AND c.relfilenode <> 0"
        )
        return dict(cursor.fetchall())


def _two_users_in_different_partitions(tenant) -> tuple[MemoryUser, MemoryUser]:
    """A victim and a bystander whose index rows are in different partitions (with
    MEMORY_POSTGRES_PARTITIONS 64, one of the first ten users almost surely is)."""
    users = []
    for n in range(10):
        user = memory_user(tenant, f"user-{n}")
        fact = services.fact_store(user=user, text=f"User {n} lives in Quillborough.", actor=STAFF).fact
        indexer.index_items([fact.pk], [], vectors="here")
        users.append(user)
    victim = users[0]
    for bystander in users[1:]:
        if relation_of("recall_fts", bystander) != relation_of("recall_fts", victim):
            return victim, bystander
    raise AssertionError("every user's index rows are in one relation: the index is not partitioned by user")


def test_a_pass_after_one_users_forget_rewrites_only_that_users_partitions(alice):
    victim, bystander = _two_users_in_different_partitions(alice.tenant)
    victims = {table: relation_of(table, victim) for table in INDEX_TABLES}
    before = _files()
    services.fact_forget(fact=Fact.objects.filter(user=victim).get(), actor=STAFF)
    assert list(PendingCompaction.objects.values_list("user_pk", flat=True)) == [victim.pk]

    report = compactor.compact_pass()
    assert report is not None and report.complete, report

    after = _files()
    for partition in victims.values():
        assert after[partition] != before[partition], f"{partition} (the victim's) was not rewritten"
        assert partition in report.held_seconds
    # The victim's slice of all six index tables (facts' and episodes'), and nothing else.
    slice_ = victims["recall_fts"].rsplit("_p", 1)[1]
    expected = {f"recall_{side}{part}_p{slice_}" for side in ("", "episode_") for part in ("fts", "doc", "vector")}
    changed = {name for name in before if after.get(name) != before[name] and PARTITION.match(name)}
    assert {PARTITION.match(name).group(1) for name in changed} == expected
    for table in INDEX_TABLES:
        assert relation_of(table, bystander) not in report.held_seconds
    # The tables that are not partitioned are still rewritten whole; the facts tables are
    # partitioned too (tests/facts/test_erasure_model_partitions_postgresql.py).
    assert "facts_memoryuser" in report.held_seconds
    assert not PendingCompaction.objects.exists()


def test_another_users_recall_is_not_blocked_while_the_pass_holds_an_erased_users_partitions(alice, other_session):
    victim, bystander = _two_users_in_different_partitions(alice.tenant)
    held = compactor.relations_to_rewrite({victim.pk})
    partitions = [r.name for r in held if r.parent]
    assert {r.parent for r in held if r.parent} >= {"recall_fts", "recall_doc", "recall_vector"}
    # The lock VACUUM (FULL) takes on what it rewrites, held by another session as the pass would.
    with other_session.cursor() as cursor:
        cursor.execute("BEGIN")
        for partition in partitions:
            cursor.execute(f"LOCK TABLE {partition} IN ACCESS EXCLUSIVE MODE")
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '100ms'")
    try:
        result = recall_services.recall(user=bystander, query="where does the user live", log=False)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")
    assert [hit.fact.user_id for hit in result.items] == [bystander.pk]


def test_a_receipt_is_stamped_only_once_every_partition_of_the_erased_user_is_rewritten(
    alice, other_session, monkeypatch
):
    from facts import privacy

    monkeypatch.setattr(compactor, "RETRY_PAUSE_SECONDS", 0.05)
    victim, bystander = _two_users_in_different_partitions(alice.tenant)
    busy = relation_of("recall_vector", victim)
    receipt = privacy.user_erase(user=victim, actor=STAFF)
    with other_session.cursor() as cursor:
        cursor.execute("BEGIN")
        cursor.execute(f"LOCK TABLE {busy} IN ACCESS SHARE MODE")

    report = compactor.compact_pass()
    assert report is not None and report.left_for_next_pass == [busy], report
    assert DeletionReceipt.objects.get(pk=receipt.pk).bytes_gone_at is None
    assert PendingCompaction.objects.filter(user_pk=victim.pk).exists()

    other_session.rollback()
    report = compactor.compact_pass()
    assert report is not None and report.complete
    assert busy in report.held_seconds
    assert relation_of("recall_vector", bystander) not in report.held_seconds
    assert DeletionReceipt.objects.get(pk=receipt.pk).bytes_gone_at == report.finished_at
