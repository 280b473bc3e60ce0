"""On PostgreSQL, a turn's way through the service reads and writes its person's partitions only.

The tables that hold a person's words are hash-partitioned by user (core/db/partitioned_tables.py,
recall/engines/postgresql/ddl.py). A statement that finds a row by id alone is planned and probed
on every partition: at 64 partitions that cost the server 76 ms of CPU a turn against 23 ms once
the turn path named the user (docs/measurements.md §20). Here every statement a posted turn runs
(the POST, the extraction by the offline rules extractor, the indexing, run inline as the workers
run them) is planned again with EXPLAIN, and none may touch more than one partition of a table.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db(transaction=True)

_PARTITION = re.compile(r"^(?P<table>\w+)_p\d+$")
# Statements that read across people by design, with the reason.
ACROSS_PEOPLE = {
    # Which extractor runs is the newest extracted turn's, whoever's (facts.extraction.status).
    "facts_turn": re.compile(r'ORDER BY "facts_turn"\."id" DESC'),
}


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("partitions are PostgreSQL's")


def _partitions_touched(sql: str) -> dict[str, set[str]]:
    """table -> the partitions of it EXPLAIN plans for `sql` (no row is read or written)."""
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (FORMAT JSON) " + sql)
        plan = cursor.fetchone()[0]
    touched: dict[str, set[str]] = defaultdict(set)

    def walk(node: dict) -> None:
        found = _PARTITION.match(node.get("Relation Name", ""))
        if found:
            touched[found["table"]].add(node["Relation Name"])
        for child in node.get("Plans", []):
            walk(child)

    walk((plan if isinstance(plan, list) else json.loads(plan))[0]["Plan"])
    return touched


def test_a_posted_turn_touches_one_partition_of_each_table_in_every_statement(api, post_turn):
    post_turn(api, "t1", "My sister Eva moved to Porto last spring and teaches music there.")
    with CaptureQueriesContext(connection) as captured:
        post_turn(api, "t2", "Our dog Pixel is afraid of thunderstorms and hides under the bed.")
    statements = [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].lstrip().upper().startswith(("SELECT", "UPDATE", "DELETE"))
    ]
    assert len(statements) > 10, statements
    wide = []
    for sql in statements:
        for table, partitions in _partitions_touched(sql).items():
            if len(partitions) > 1 and not (table in ACROSS_PEOPLE and ACROSS_PEOPLE[table].search(sql)):
                wide.append((table, len(partitions), sql[:300]))
    assert wide == [], "\n".join(map(str, wide))
