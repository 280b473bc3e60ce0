"""Two web servers on one database (as two hosts behind a proxy): the same user's writes
arriving at both at once make one user, no duplicate fact, entity or edge.

On PostgreSQL (tests/on_postgres.py) the servers are two processes sharing a server
database; on SQLite they share the file, as two processes of one host do.
"""

from __future__ import annotations

import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.base import service_database_url
from tests.integration.stack import ROOT, Http, clean_env, manage, start_web
from tests.migrated import migrate

pytestmark = [pytest.mark.integration, pytest.mark.slow]

ROUNDS = 10
PER_HOST = 4


@pytest.fixture(scope="module")
def two_hosts(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("two-hosts")
    env = clean_env(DATABASE_URL=service_database_url(tmp), MEMORY_VAR_DIR=str(tmp), CELERY_TASK_ALWAYS_EAGER="1")
    migrate(env)
    out = manage(["create_tenant", "two-hosts"], env)
    key = re.search(r"^api_key=(\S+)$", out, re.MULTILINE).group(1)
    (tmp / "a").mkdir()
    (tmp / "b").mkdir()
    first, first_base = start_web(env, tmp / "a")
    second, second_base = start_web(env, tmp / "b")
    try:
        yield [Http(first_base, key, timeout=120), Http(second_base, key, timeout=120)], env
    finally:
        first.stop()
        second.stop()


def _at_once(calls):
    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(lambda call: call(), calls))


def _count(env, code: str) -> str:
    script = "import django; django.setup(); " + code
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "memory_service.settings"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def test_the_same_fact_posted_to_both_hosts_at_once_is_stored_once(two_hosts):
    hosts, env = two_hosts
    for n in range(ROUNDS):
        # The user exists already: its unique constraint no longer orders the writers.
        assert hosts[0].post(f"/users/racer-{n}/facts", {"text": "User is a beekeeper."})[0] == 201
        body = {"text": f"User keeps bees in hive {n}.", "entities": ["Bees", "Hive Street"]}
        answers = _at_once(
            [
                lambda h=h, path=f"/users/racer-{n}/facts", body=body: h.post(path, body)
                for h in hosts
                for _ in range(PER_HOST)
            ]
        )
        assert all(status in (200, 201) for status, _ in answers), answers
        assert len({a["id"] for _, a in answers}) == 1, answers
    counts = _count(
        env,
        "from facts.models import MemoryUser, Fact, Entity; "
        "users = MemoryUser.objects.filter(external_id__startswith='racer-'); "
        "print(users.count(), Fact.objects.filter(user__in=users).count(), "
        "Entity.objects.filter(user__in=users).count())",
    )
    assert counts == f"{ROUNDS} {2 * ROUNDS} {2 * ROUNDS}", counts


def test_the_same_turn_posted_to_both_hosts_at_once_is_one_turn_with_one_set_of_facts(two_hosts):
    hosts, env = two_hosts
    for n in range(ROUNDS):
        body = {"session_id": "s1", "turn_id": f"t{n}", "user_input": f"My sister Ana lives in Porto {n}."}
        answers = _at_once(
            [lambda h=h, body=body: h.post("/users/turn-racer/turns", body) for h in hosts for _ in range(PER_HOST)]
        )
        assert all(status in (200, 202) for status, _ in answers), answers
    counts = _count(
        env,
        "from facts.models import MemoryUser, Turn, Fact, Edge; from django.db.models import Count; "
        "u = MemoryUser.objects.filter(external_id='turn-racer'); "
        "dupes = Fact.objects.filter(user__in=u).values('text_hash', 'status')"
        ".annotate(n=Count('id')).filter(n__gt=1); "
        "edges = Edge.objects.filter(user__in=u).values('src', 'relation', 'dst', 'valid_to').annotate(n=Count('id'))"
        ".filter(n__gt=1); "
        "print(u.count(), Turn.objects.filter(user__in=u).count(), dupes.count(), edges.count())",
    )
    assert counts == f"1 {ROUNDS} 0 0", counts
