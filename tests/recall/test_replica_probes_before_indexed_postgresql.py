"""Read your own writes for recall on a many-hosts deployment (docs/measurements.md §20): "store a
fact through the API, then recall its marker word at once" finds it as a direct hit while the
replica lags (replay paused) and no worker indexes (this process a web host whose drains never
run), because the web host writes the fact's term rows in the write's own transaction
(recall/indexer.py `_terms_now`).

The full figure: MEMORY_TEST_REPLICA_PROBES=1000 tests/on_postgres.py -s this file.
"""

from __future__ import annotations

import os
import time
import uuid

import psycopg
import pytest
from django.db import connections

from facts import replicas
from recall import indexer
from recall.models import PendingIndex
from tests.base import ApiClient, make_tenant
from tests.pg_replica import set_replay, wait_until_replayed

# This process as a web host whose `db` worker never drains (the drains asked for, counted).
from tests.recall.test_recall_before_indexed import web_host  # noqa: F401
from tests.recall.test_replica_reads_postgresql import ALIAS, ON_POSTGRES, _routed, replica  # noqa: F401

PROBES = int(os.environ.get("MEMORY_TEST_REPLICA_PROBES", "20"))
pytestmark = pytest.mark.django_db(transaction=True, databases=["default", ALIAS] if ON_POSTGRES else ["default"])


def _store(api: ApiClient, user: str, text: str) -> None:
    response = api.post(f"/users/{user}/facts", {"text": text, "category": "other"})
    assert response.status_code == 201, response.content


def _recall(api: ApiClient, user: str, query: str) -> list[dict]:
    response = api.post(f"/users/{user}/recall", {"query": query, "k": 5})
    assert response.status_code == 200, response.content
    return response.json()["items"]


def test_store_then_recall_at_once_finds_the_fact_with_replay_paused_and_no_worker_indexing(replica, web_host):  # noqa: F811
    primary, config = replica
    api = ApiClient(make_tenant("acme").raw_key)
    for n in range(6):  # facts the marker's recall could back-fill k with, indexed long ago
        _store(api, "new", f"Nina's old note number {n} is about the garden")
    indexer.index_items(PendingIndex.objects.values_list("item_id", flat=True), [], vectors="here")
    wait_until_replayed(primary, config)
    set_replay(config, paused=True)
    replicas.served.clear()
    missed_direct = missed_any = 0
    try:
        for _ in range(PROBES):
            marker = f"marker{uuid.uuid4().hex[:10]}"
            _store(api, "new", f"Nina's locker code is {marker}")
            items = [i for i in _recall(api, "new", marker) if marker in i["fact"]["text"]]
            missed_any += not items
            missed_direct += not any("supplement" not in i["signals"] for i in items)
        with connections[ALIAS].cursor() as cursor:  # the replica really lacks the new facts
            cursor.execute("SELECT count(*) FROM facts_fact WHERE text LIKE %s", ["Nina's locker code%"])
            assert cursor.fetchone()[0] == 0
        pending = PendingIndex.objects.count()
        print(
            f"\npaused replay, no worker indexing: {PROBES} probes, {missed_direct} not found as a direct hit "
            f"({missed_any} not returned at all); {pending} facts still in the outbox; reads {dict(replicas.served)}"
        )
    finally:
        _resume(config)
    assert pending == PROBES and len(web_host) == PROBES + 6  # no worker indexed anything meanwhile
    assert replicas.served["primary_lagging"] == PROBES
    assert missed_direct == 0


def _resume(config: dict) -> None:
    """Resume replay. Once resumed, the standby replays what it received long ago (more than
    max_standby_streaming_delay) and may cancel the very statement that resumed it (a recovery
    conflict with its snapshot): then it is asked again until it says it is not paused."""
    for _ in range(50):
        try:
            set_replay(config, paused=False)
            return
        except psycopg.Error:
            time.sleep(0.2)
    raise AssertionError("the standby's replay could not be resumed")
