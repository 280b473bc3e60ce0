"""What the drill reports of the primary's CPU by kind of process (scripts/hosts/pg_work.py), on a
real PostgreSQL of the pgserver wheel. No root needed."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import psycopg
import pytest

from tests.base import private_postgres

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts/hosts"))

import pg_work  # noqa: E402

pytestmark = pytest.mark.no_database

HOSTS = {"10.77.0.11": "web1", "10.77.0.20": "dbw"}
# Enough work for a backend to use about a second of CPU on this machine.
BUSY = "SELECT count(*) FROM generate_series(1, 6000000) AS n WHERE n % 7 = 3"


def test_each_process_title_names_its_kind_and_a_client_by_its_host():
    kinds = {
        "/opt/pginstall/bin/postgres -D /tmp/pg -h 10.77.0.40 -k /tmp": "postmaster",
        "postgres: checkpointer ": "checkpointer",
        "postgres: background writer ": "background writer",
        "postgres: autovacuum launcher ": "autovacuum launcher",
        "postgres: autovacuum worker memory": "autovacuum worker",
        "postgres: walsender postgres 10.77.0.41(41830) streaming 0/5A3C2F0": "walsender (replica)",
        "postgres: postgres memory 10.77.0.11(40312) idle": "clients: web1",
        "postgres: postgres memory 10.77.0.20(51000) SELECT": "clients: dbw",
        "postgres: postgres memory 10.77.0.99(51000) idle in transaction": "clients: 10.77.0.99",
        "postgres: postgres memory [local] idle": "clients: local socket",
    }
    assert {title: pg_work.kind_of(title, HOSTS) for title in kinds} == kinds


def test_a_connection_that_works_and_one_that_came_and_went_are_both_counted():
    with private_postgres("pg-work-") as server, psycopg.connect(server.get_uri()) as stays:
        work = pg_work.PrimaryWork(server.get_pid())  # its first sample sees `stays`, idle
        stays.execute(BUSY)
        # Opened, busy and closed with no sample between (the sampling thread is not started):
        # only the ticks the postmaster reaped show it.
        reaped_before = pg_work.reaped_ticks(server.get_pid())
        with psycopg.connect(server.get_uri()) as brief:
            brief.execute(BUSY)
        _wait_until_reaped(server.get_pid(), reaped_before)
        work.stop()
        seconds = work.seconds()
    assert seconds["clients: local socket"] >= 0.3, seconds
    assert seconds["exited, unsampled"] >= 0.3, seconds
    assert sum(seconds.values()) < 10, seconds


def _wait_until_reaped(postmaster: int, before: int, seconds: float = 5.0) -> None:
    """A closed connection's backend exits, then the postmaster reaps it: a sample between the
    two would see it, and the test means one that none saw."""
    deadline = time.monotonic() + seconds
    while pg_work.reaped_ticks(postmaster) == before and time.monotonic() < deadline:
        time.sleep(0.05)


def test_the_sampling_thread_starts_samples_and_stops():
    with private_postgres("pg-work-") as server, psycopg.connect(server.get_uri()) as busy:
        work = pg_work.PrimaryWork(server.get_pid())
        work.start()
        busy.execute(BUSY)
        time.sleep(pg_work.PERIOD * 1.5)
        work.stop()
        assert not work.is_alive()
        assert work.seconds()["clients: local socket"] >= 0.3
