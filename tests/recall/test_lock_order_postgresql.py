"""On PostgreSQL: every read that locks a set of rows locks them by primary key (issue 36), so two
transactions locking overlapping sets cannot each hold a row the other waits for.

A row lock is taken as the row is returned, so the order is the statement's ORDER BY; without one
it is the plan's (an index's, a partition's), which two statements need not share.
"""

from __future__ import annotations

import re
import threading
import time

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from facts import services
from facts.models import Turn, TurnState
from recall import episode_index, index, indexer, turn_keys
from tests.threads import at_once
from webhooks import services as webhooks

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks (SQLite's one writer takes no row locks)")


def _turn(user, turn_id: str) -> Turn:
    return Turn.objects.create(
        tenant_id=user.tenant_id,
        user=user,
        session_id="s1",
        turn_id=turn_id,
        user_input=f"Words of {turn_id}.",
        state=TurnState.DONE,
    )


def _fact(user, text: str, turn: Turn):
    return services.fact_store(user=user, text=text, actor=services.SYSTEM, source_turn=turn).fact


def test_an_index_write_of_two_turns_takes_their_facts_in_the_order_other_writers_do(alice, settings):
    """Fact a (the older) was stated in turn 2, fact b in turn 1. Another transaction holds a and
    is about to take b: the primary-key order recall.index.live_documents locks facts in. The index
    write of both turns' episodes (with words+facts keys) locked their facts by turn: b, then it
    waited for a, and the other then waited for b: PostgreSQL found the deadlock and aborted the
    index write. Taking a first, it waits for the other to finish, and then writes."""
    settings.MEMORY_RECALL_TURN_KEYS = turn_keys.WORDS_AND_FACTS
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    first, second = _turn(user, "t1"), _turn(user, "t2")
    a = _fact(user, "User keeps bees on the roof.", second)
    b = _fact(user, "User bakes rye bread on Fridays.", first)
    assert a.pk < b.pk and first.pk < second.pk

    other = connection.get_new_connection(connection.get_connection_params())
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT id FROM facts_fact WHERE id = %s FOR UPDATE", [a.pk])
            done = threading.Event()
            outcome: list = []

            def index_write():
                outcome.extend(at_once(lambda: indexer.index_items([], [first.pk, second.pk], vectors="skip"), [()]))
                done.set()

            writer = threading.Thread(target=index_write)
            writer.start()
            _wait_for_a_lock_wait(cursor)
            # The deadlock check runs after deadlock_timeout (1 s): either side may be aborted.
            cursor.execute("SET LOCAL lock_timeout = '5s'")
            cursor.execute("SELECT id FROM facts_fact WHERE id = %s FOR UPDATE", [b.pk])
        other.commit()
        assert done.wait(30)
        writer.join()
    finally:
        other.rollback()
        other.close()
    assert len(outcome) == 1 and not isinstance(outcome[0], BaseException), outcome
    assert outcome[0].left == 0  # both episodes are in the index as they are now


def _wait_for_a_lock_wait(cursor, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted AND locktype = 'transactionid'")
        if cursor.fetchone()[0]:
            return
        time.sleep(0.05)
    raise AssertionError("the index write never waited for the row the other transaction holds")


def test_every_read_that_locks_a_set_of_rows_orders_them_by_primary_key(alice, settings):
    settings.MEMORY_RECALL_TURN_KEYS = turn_keys.WORDS_AND_FACTS
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    turn = _turn(user, "t1")
    fact = _fact(user, "User keeps bees on the roof.", turn)
    with transaction.atomic(), CaptureQueriesContext(connection) as captured:
        index.live_documents([fact.pk], lock=True)
        episode_index.episode_documents([turn.pk], lock=True)
        turn_keys.facts_said([turn.pk], lock=True)
        webhooks.strip_facts(fact_uuids=[str(fact.uuid)])
    locking = [q["sql"] for q in captured.captured_queries if "FOR UPDATE" in q["sql"]]
    assert len(locking) == 5, locking  # episode_documents reads the turns' facts too
    # By the id column, named or (a values_list read that selects it first) by its position.
    by_id = re.compile(r'ORDER BY "\w+"\."id" ASC FOR UPDATE|^SELECT "\w+"\."id" AS "pk".* ORDER BY 1 ASC FOR UPDATE')
    unordered = [sql for sql in locking if not by_id.search(sql)]
    assert unordered == []
