"""On PostgreSQL with a real streaming replica (`pg_basebackup -R` from the run's server): recall,
the context block and the fact list and get routes read from the replica, and a user whose last
write the replica has not replayed reads from the primary (facts/replicas.py).

Replay is paused with `pg_wal_replay_pause()`: "store, then recall at once" must still find every
fact, while a user who wrote before the pause keeps reading from the replica.
"""

from __future__ import annotations

import os
import uuid

import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from facts import replicas
from tests.base import ApiClient, make_tenant
from tests.pg_replica import set_replay, streaming_replica, wait_until_replayed

ALIAS = "replica0"
# The full figure (docs/measurements.md §13): MEMORY_TEST_REPLICA_PROBES=1000 tests/on_postgres.py this file.
PROBES = int(os.environ.get("MEMORY_TEST_REPLICA_PROBES", "40"))
ROUNDS = int(os.environ.get("MEMORY_TEST_REPLICA_ROUNDS", "20"))  # the share test's; 200 measured
ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")
pytestmark = pytest.mark.django_db(transaction=True, databases=["default", ALIAS] if ON_POSTGRES else ["default"])


@pytest.fixture(scope="module")
def replica(django_db_setup, django_db_blocker):
    """One replica for the module, made after the test database exists, known to Django as
    `replica0` (a mirror of the test database, as settings.py declares replicas)."""
    if connection.vendor != "postgresql":
        yield None
        return
    primary = dict(connection.settings_dict)
    with streaming_replica(primary) as config:
        connections.settings[ALIAS] = {
            **primary,
            "HOST": config["HOST"],
            "PORT": config["PORT"],
            "TEST": {"MIRROR": "default"},
        }
        try:
            yield primary, config
        finally:
            connections[ALIAS].close()
            del connections[ALIAS]
            del connections.settings[ALIAS]


@pytest.fixture(autouse=True)
def _routed(replica, settings):
    if replica is None:
        pytest.skip("streams from a PostgreSQL primary")
    settings.MEMORY_DATABASE_REPLICAS = [ALIAS]
    replicas.served.clear()
    replicas._replayed.clear()


def _store(api: ApiClient, user: str, text: str) -> dict:
    response = api.post(f"/users/{user}/facts", {"text": text, "category": "other"})
    assert response.status_code == 201, response.content
    return response.json()


def _recalled(api: ApiClient, user: str, query: str) -> list[str]:
    response = api.post(f"/users/{user}/recall", {"query": query, "k": 5})
    assert response.status_code == 200, response.content
    return [item["fact"]["text"] for item in response.json()["items"]]


def test_recall_list_and_get_read_from_the_replica_once_it_has_the_users_writes(replica):
    primary, config = replica
    api = ApiClient(make_tenant("acme").raw_key)
    stored = _store(api, "ana", "Ana keeps bees on the roof of the library")
    wait_until_replayed(primary, config)
    replicas.served.clear()

    with CaptureQueriesContext(connections[ALIAS]) as on_replica, CaptureQueriesContext(connection) as on_primary:
        for _ in range(20):
            assert "Ana keeps bees on the roof of the library" in _recalled(api, "ana", "bees on the roof")
        assert api.get("/users/ana/facts").json()["items"][0]["id"] == stored["id"]
        assert api.get(f"/facts/{stored['id']}").status_code == 200
        assert api.post("/users/ana/context", {"query": "bees", "max_tokens": 200}).status_code == 200

    assert replicas.served["replica"] == 23 and replicas.replica_share() == 1.0
    # On the primary: the user's lookup (with its written position) and the log rows' inserts.
    primary_reads = [q["sql"] for q in on_primary.captured_queries if q["sql"].startswith("SELECT")]
    assert primary_reads and all('FROM "facts_memoryuser"' in sql for sql in primary_reads), "\n".join(
        s[:300] for s in primary_reads
    )
    assert any("recall_" in q["sql"] for q in on_replica.captured_queries)


def test_a_write_the_replica_has_not_replayed_is_read_from_the_primary(replica):
    primary, config = replica
    api = ApiClient(make_tenant("acme").raw_key)
    _store(api, "old", "Olga planted tulips along the river path")
    wait_until_replayed(primary, config)
    set_replay(config, paused=True)
    replicas.served.clear()
    try:
        misses = 0
        for number in range(PROBES):
            marker = f"marker{uuid.uuid4().hex[:10]}"
            fact = _store(api, "new", f"Nina's locker code is {marker}")
            if not any(marker in text for text in _recalled(api, "new", marker)):
                misses += 1
            assert api.get(f"/facts/{fact['id']}").status_code == 200
            # A user whose writes were replayed before the pause still reads from the replica.
            if number % 4 == 0:
                assert "Olga planted tulips along the river path" in _recalled(api, "old", "tulips")
        with connections[ALIAS].cursor() as cursor:  # the replica really lacks the new facts
            cursor.execute("SELECT count(*) FROM facts_fact WHERE text LIKE %s", ["Nina's locker code%"])
            assert cursor.fetchone()[0] == 0
    finally:
        set_replay(config, paused=False)
    print(f"\npaused replay: {PROBES} probes, {misses} misses; reads {dict(replicas.served)}")
    assert misses == 0
    assert replicas.served["primary_lagging"] == 2 * PROBES
    assert replicas.served["replica"] == PROBES // 4

    wait_until_replayed(primary, config)
    replicas.served.clear()
    assert any("locker code" in text for text in _recalled(api, "new", "locker code"))
    assert replicas.served["replica"] == 1  # caught up: back on the replica


def test_with_replay_running_the_replica_serves_most_recalls_and_none_misses(replica):
    """Writes beside reads, as the drill's 5 turns/s beside 20 recalls/s: each round stores one
    fact, recalls it at once, and recalls for four users who wrote earlier."""
    primary, config = replica
    api = ApiClient(make_tenant("acme").raw_key)
    for number in range(4):
        _store(api, f"reader{number}", f"Reader {number} collects old maps of harbours")
    wait_until_replayed(primary, config)
    replicas.served.clear()
    misses = 0
    for _ in range(ROUNDS):
        marker = f"marker{uuid.uuid4().hex[:10]}"
        _store(api, "writer", f"The writer's parcel code is {marker}")
        misses += not any(marker in text for text in _recalled(api, "writer", marker))
        for number in range(4):
            assert _recalled(api, f"reader{number}", "old maps of harbours")
    assert misses == 0
    share = replicas.replica_share()
    print(f"\nreplica share {share:.3f} of {sum(replicas.served.values())} reads: {dict(replicas.served)}")
    assert share >= 0.8 - 1e-9  # 4 of every 5 at least; the just-written recall when replay won the race


def test_without_replicas_nothing_is_routed_and_no_position_is_recorded(api, settings):
    settings.MEMORY_DATABASE_REPLICAS = []
    _store(api, "solo", "Sam walks to work")
    assert _recalled(api, "solo", "walks to work")
    from facts.models import MemoryUser

    assert MemoryUser.objects.get(external_id="solo").written_lsn is None
    assert replicas.served == {"primary": 1}
