"""A backlog on the embedded broker: a few hundred turns posted through the API as fast as it
takes them, one real worker (prefork, two processes, started without -Q), the offline extractor."""

from __future__ import annotations

import time

import pytest

from facts.models import Fact, Turn
from tests.base import ApiClient, make_tenant
from tests.integration.conversation import TURNS_PER_USER, scripted_turns
from tests.integration.embedded import embedded_broker, start_worker, stop_worker, stored_messages

# About the embedded broker and the worker processes, the same whatever the database engine.
pytestmark = [pytest.mark.integration, pytest.mark.sqlite_only]

TURNS = 300
FACTS_PER_USER = 1  # the backlog is of turns; embedding each fact is not what this measures
FINISH_WITHIN_SECONDS = 150


@pytest.fixture
def worker(tmp_path):
    with embedded_broker(tmp_path) as path:
        proc = start_worker(tmp_path, "--concurrency", "2", embedding_threads=1)
        yield proc, path
        stop_worker(proc)


def _finished() -> int:
    return Turn.objects.filter(state__in=["done", "skipped", "failed"]).count()


@pytest.mark.django_db(transaction=True)
def test_a_backlog_of_turns_on_the_embedded_broker_is_all_processed_and_the_worker_survives(worker, tmp_path):
    proc, broker_file = worker
    api = ApiClient(make_tenant("acme").raw_key)
    turns = scripted_turns(TURNS, FACTS_PER_USER)
    for turn in turns:
        response = api.post(f"/users/{turn.user_id}/turns", turn.body())
        assert response.status_code == 202, response.content

    # Done when every turn is finished and every message (embedding tasks included) was
    # acknowledged and deleted: nothing stranded.
    deadline = time.monotonic() + FINISH_WITHIN_SECONDS
    while time.monotonic() < deadline and proc.poll() is None:
        if _finished() == TURNS and stored_messages(broker_file) == 0:
            break
        time.sleep(0.5)
    log = (tmp_path / "worker.log").read_text(errors="replace")
    assert proc.poll() is None, f"the worker died:\n{log[-4000:]}"
    states = dict.fromkeys(["done", "skipped"], 0)
    for state in Turn.objects.values_list("state", flat=True):
        states[state] = states.get(state, 0) + 1
    users = TURNS // TURNS_PER_USER
    assert states == {"done": users * FACTS_PER_USER, "skipped": TURNS - users * FACTS_PER_USER}, log[-4000:]
    assert Fact.objects.count() == users * FACTS_PER_USER
    assert set(Fact.objects.values_list("mention_count", flat=True)) == {1}
    assert stored_messages(broker_file) == 0
    assert "Unrecoverable error" not in log
