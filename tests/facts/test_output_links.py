"""attach_output_links: what FactOut shows beyond a fact's own row, read in bulk."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from facts import services as fs
from facts.models import Fact, Turn
from facts.selectors import OutputLinks, attach_output_links

pytestmark = pytest.mark.django_db


@pytest.fixture
def user(alice):
    return fs.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")


def test_it_reads_only_entity_names_when_no_fact_links_anywhere(user, django_assert_num_queries):
    plain = fs.fact_store(user=user, text="User lives in Berlin.", actor=fs.SYSTEM).fact
    tagged = fs.fact_store(user=user, text="User's sister is Ana.", actor=fs.SYSTEM, entities=["Ana"]).fact
    with django_assert_num_queries(1):
        attach_output_links([plain, tagged])
    assert plain.output_links == OutputLinks(None, None, None, [])
    assert tagged.output_links == OutputLinks(None, None, None, ["ana"])  # names are kept lower-cased


def test_it_shows_the_source_turn_and_the_replaced_fact(user, django_assert_num_queries):
    turn = Turn.objects.create(tenant=user.tenant, user=user, session_id="s1", turn_id="t1", user_input="I moved.")
    old = fs.fact_store(user=user, text="User lived in Berlin.", actor=fs.SYSTEM).fact
    new = fs.fact_store(user=user, text="User lives in Lisbon.", actor=fs.SYSTEM, source_turn=turn).fact
    Fact.objects.filter(pk=new.pk).update(replaces=old)
    new.refresh_from_db()
    plain = fs.fact_store(user=user, text="User likes jazz.", actor=fs.SYSTEM).fact
    with django_assert_num_queries(2):
        attach_output_links([new, plain])
    assert new.output_links == OutputLinks(None, old.uuid, "t1", [])
    assert plain.output_links == OutputLinks(None, None, None, [])


def test_on_postgresql_the_entity_names_are_read_from_the_users_partition_only(user):
    # Without the user in the WHERE clause the read was planned and run over every partition
    # of facts_entity: about 2.3 ms of planning per recall at 64 partitions (measurements §13).
    if connection.vendor != "postgresql":
        pytest.skip("the user-data tables are hash-partitioned by user on PostgreSQL only")
    other = fs.memory_user_get_or_create(tenant=user.tenant, user_id="u2")
    fs.fact_store(user=other, text="User's brother is Ben.", actor=fs.SYSTEM, entities=["Ben"])
    tagged = fs.fact_store(user=user, text="User's sister is Ana.", actor=fs.SYSTEM, entities=["Ana"]).fact
    reads: list[tuple[str, object]] = []

    def record(execute, sql, params, many, context):
        reads.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        attach_output_links([tagged])
    assert tagged.output_links.entities == ["ana"]
    [(sql, params)] = reads
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
        plan = cursor.fetchone()[0]
    plan = json.loads(plan) if isinstance(plan, str) else plan
    partitions = {table for table in _tables(plan[0]["Plan"]) if table.startswith("facts_entity_")}
    assert len(partitions) == 1, sorted(partitions)


def _tables(node: dict) -> list[str]:
    found = [node["Relation Name"]] if "Relation Name" in node else []
    for child in node.get("Plans", []):
        found += _tables(child)
    return found
