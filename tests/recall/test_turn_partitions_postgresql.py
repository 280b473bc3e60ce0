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

from facts.extraction import status

pytestmark = pytest.mark.django_db(transaction=True)

_PARTITION = re.compile(r"^(?P<table>\w+)_p\d+$")
# Statements that read across people by design, with the reason.
ACROSS_PEOPLE = {
    # A caller naming a fact by its public id alone (GET, PATCH, DELETE /facts/{id}): each
    # partition's unique index on (uuid, user_id) is probed once for its id and person, and
    # nothing else is read in that statement (facts.services.store.fact_get).
    "facts_fact": re.compile(
        r'^SELECT "facts_fact"\."id" AS "pk", "facts_fact"\."user_id" AS "user_id" FROM "facts_fact" '
        r'WHERE \("facts_fact"\."tenant_id" = \S+ AND "facts_fact"\."uuid" = \S+\)'
    ),
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


def _wide_statements(captured: CaptureQueriesContext) -> list[tuple[str, int, str]]:
    """(table, partitions, statement) for each captured statement planned on more than one partition."""
    statements = [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].lstrip().upper().startswith(("SELECT", "UPDATE", "DELETE"))
    ]
    assert len(statements) >= 3, statements
    wide = []
    for sql in statements:
        for table, partitions in _partitions_touched(sql).items():
            if len(partitions) > 1 and not (table in ACROSS_PEOPLE and ACROSS_PEOPLE[table].search(sql)):
                where = sql.find(" WHERE ")
                wide.append((table, len(partitions), f"{sql[:60]} ...{sql[where : where + 240]}"))
    return wide


def _assert_one_partition_each(*captures: CaptureQueriesContext) -> None:
    wide = [pair for captured in captures for pair in _wide_statements(captured)]
    assert wide == [], "\n".join(map(str, wide))


def _a_fact_said_in_a_turn(api, post_turn) -> dict:
    post_turn(api, "t1", "I work at Samsung as a nurse.")
    return api.get("/users/u1/facts").json()["items"][0]


def test_a_posted_turn_touches_one_partition_of_each_table_in_every_statement(api, post_turn, monkeypatch):
    # Which extractor runs is read from the newest extracted turn, anyone's, on every partition;
    # the answer to a POST reuses it for a few seconds (facts/extraction/status.py), here frozen.
    monkeypatch.setattr(status, "_clock", lambda: 1000.0)
    post_turn(api, "t1", "My sister Eva moved to Porto last spring and teaches music there.")
    with CaptureQueriesContext(connection) as captured:
        post_turn(api, "t2", "Our dog Pixel is afraid of thunderstorms and hides under the bed.")
    _assert_one_partition_each(captured)


@pytest.mark.parametrize("withdraw_turn", [False, True], ids=["the fact", "the fact and its turn"])
def test_forgetting_a_fact_touches_one_partition_of_each_table_in_every_statement(
    api, post_turn, django_capture_on_commit_callbacks, withdraw_turn
):
    post_turn(api, "t1", "I work at Samsung as a nurse.")
    post_turn(api, "t2", "Honestly, I can't stand cilantro.")
    facts = api.get("/users/u1/facts").json()["items"]
    assert facts, "the rules extractor kept no fact"
    with CaptureQueriesContext(connection) as captured, django_capture_on_commit_callbacks(execute=True):
        response = api.delete(f"/facts/{facts[0]['id']}?withdraw_turn={str(withdraw_turn).lower()}")
    assert response.status_code == 204, response.content
    _assert_one_partition_each(captured)


def test_reading_and_correcting_a_fact_touch_one_partition_of_each_table_in_every_statement(api, post_turn):
    fact = _a_fact_said_in_a_turn(api, post_turn)
    with CaptureQueriesContext(connection) as read:
        answer = api.get(f"/facts/{fact['id']}")
    assert answer.status_code == 200 and answer.json()["source_turn_id"] == "t1", answer.content
    assert answer.json()["entities"], answer.content
    with CaptureQueriesContext(connection) as corrected:
        answer = api.patch(f"/facts/{fact['id']}", {"text": "User works at Samsung as a head nurse."})
    assert answer.status_code == 200 and answer.json()["replaces"] is None, answer.content
    _assert_one_partition_each(read, corrected)


def test_a_facts_history_and_provenance_touch_one_partition_of_each_table_in_every_statement(api, post_turn):
    fact = _a_fact_said_in_a_turn(api, post_turn)
    with CaptureQueriesContext(connection) as read:
        history = api.get(f"/facts/{fact['id']}/history")
        provenance = api.get(f"/facts/{fact['id']}/provenance")
    assert history.status_code == 200 and history.json(), history.content
    assert provenance.status_code == 200, provenance.content
    _assert_one_partition_each(read)


def test_reading_a_turn_and_retrying_it_touch_one_partition_of_each_table_in_every_statement(
    api, post_turn, django_capture_on_commit_callbacks
):
    from facts.models import Turn, TurnState

    post_turn(api, "t1", "I work at Samsung as a nurse.")
    Turn.objects.filter(turn_id="t1").update(state=TurnState.FAILED, last_error="the model timed out")
    with CaptureQueriesContext(connection) as read, django_capture_on_commit_callbacks(execute=True):
        assert api.get("/users/u1/turns/t1").json()["status"] == "failed"
        retried = api.post("/users/u1/turns/t1/retry")
    assert retried.status_code == 202, retried.content
    _assert_one_partition_each(read)
