"""A fact written through the API is found by the very next recall of its user on a host that
leaves indexing to a worker (a web host of a many-hosts deployment), whatever that worker's
backlog: the web host writes the fact's term rows in the write's own transaction and only its
vector waits in the outbox (recall/indexer.py `_terms_now`, docs/design.md §5 "Index sync").

Every test here runs this process as such a web host whose worker never drains: it neither
embeds nor consumes the `db` queue, and the drain it asks for after commit is only counted.
"""

from __future__ import annotations

import json
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from facts.models import Fact, MemoryUser
from recall import fts, indexer, vec
from recall.models import PendingIndex
from tests.base import ApiClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def web_host(monkeypatch, model):
    """The drains this "web host" asked for (none of them runs)."""
    asked: list[int] = []
    monkeypatch.setattr(indexer, "indexes_here", lambda: False)
    monkeypatch.setattr(indexer, "consumes", lambda queue: False)
    monkeypatch.setattr(indexer, "request_drain", lambda: asked.append(1))
    return asked


@pytest.fixture
def write(django_capture_on_commit_callbacks):
    """A request that writes, with its after-commit work run as a real commit runs it."""

    def run(call, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            response = call(*args, **kwargs)
        assert response.status_code in (200, 201, 204), response.content
        return response

    return run


def _marker() -> str:
    return f"marker{uuid.uuid4().hex[:10]}"


def _store(api: ApiClient, write, user: str, text: str) -> dict:
    return write(api.post, f"/users/{user}/facts", {"text": text, "category": "other"}).json()


def _direct(api: ApiClient, user: str, query: str, **extra) -> list[str]:
    """The texts recall returns as direct hits (not the newest facts back-filling k)."""
    response = api.post(f"/users/{user}/recall", {"query": query, "k": 5, **extra})
    assert response.status_code == 200, response.content
    return [i["fact"]["text"] for i in response.json()["items"] if "supplement" not in i["signals"]]


@pytest.mark.parametrize("mode", ["hybrid", "lexical"])
def test_a_fact_stored_through_the_api_is_recalled_at_once_while_the_worker_has_not_indexed_it(
    api, web_host, write, mode
):
    _store(api, write, "nina", "Nina waters the ferns on Tuesdays")
    marker = _marker()
    fact = _store(api, write, "nina", f"Nina's locker code is {marker}")
    pk = PendingIndex.objects.get(item_id__in=_pks(fact)).item_id
    assert web_host == [1, 1]  # a drain was asked for each write, and none ran
    assert not vec.indexed([pk])  # the vector waits in the outbox for the worker

    assert f"Nina's locker code is {marker}" in _direct(api, "nina", marker, mode=mode)

    # Once the worker indexes it the answer is the one it was: the same facts, in the same order.
    before = _direct(api, "nina", f"locker code {marker}", mode="lexical")
    indexer.index_items(PendingIndex.objects.values_list("item_id", flat=True), [], vectors="here")
    assert not PendingIndex.objects.exists()
    assert _direct(api, "nina", f"locker code {marker}", mode="lexical") == before


def test_a_fact_added_through_the_mem0_route_is_recalled_at_once(alice, api, web_host, write):
    marker = _marker()
    payload = {"messages": [{"role": "user", "content": f"My gate code is {marker}"}], "user_id": "mo", "infer": False}
    mem0 = Client(headers={"Authorization": f"Token {alice.raw_key}"})
    write(mem0.post, "/v3/memories/add/", json.dumps(payload), content_type="application/json")
    assert PendingIndex.objects.count() == 1
    assert f"My gate code is {marker}" in _direct(api, "mo", marker)


def test_a_changed_fact_is_recalled_by_its_new_words_at_once_and_not_by_its_old_ones(api, web_host, write):
    old, new = _marker(), _marker()
    fact = _store(api, write, "nina", f"Nina's bike lock code is {old}")
    write(api.patch, f"/facts/{fact['id']}", {"text": f"Nina's bike lock code is {new}"})
    assert _direct(api, "nina", new, mode="lexical") == [f"Nina's bike lock code is {new}"]
    assert _direct(api, "nina", old, mode="lexical") == []


def test_a_fact_forgotten_while_it_waits_for_the_worker_is_never_recalled(api, web_host, write):
    marker = _marker()
    fact = _store(api, write, "nina", f"Nina's safe code is {marker}")
    write(api.delete, f"/facts/{fact['id']}")
    pks = _pks(fact)
    assert fts.indexed_hashes(pks) == {} and not vec.indexed(pks)
    for mode in ("hybrid", "lexical"):
        response = api.post("/users/nina/recall", {"query": marker, "k": 5, "mode": mode})
        assert all(marker not in i["fact"]["text"] for i in response.json()["items"])


def test_another_users_fact_waiting_for_the_worker_is_not_recalled(api, bob_api, web_host, write):
    marker = _marker()
    _store(api, write, "olga", "Olga plants tulips along the river")
    _store(bob_api, write, "nina", "Bob's Nina keeps chickens")
    _store(api, write, "nina", f"Nina's alarm code is {marker}")
    for client, user in ((api, "olga"), (bob_api, "nina")):
        response = client.post(f"/users/{user}/recall", {"query": marker, "k": 5})
        assert response.status_code == 200
        assert all(marker not in i["fact"]["text"] for i in response.json()["items"])


def test_a_recall_as_of_a_time_before_the_write_does_not_see_the_fact(api, web_host, write):
    marker = _marker()
    _store(api, write, "nina", f"Nina's door code is {marker}")
    response = api.post("/users/nina/recall", {"query": marker, "as_of": "2001-01-01T00:00:00Z"})
    assert response.status_code == 200 and response.json()["items"] == []


def test_recall_runs_the_same_statements_with_or_without_facts_waiting_for_the_worker(api, web_host, write):
    """Nothing on the read side: a user with nothing pending pays no statement for this path,
    and one whose fact is still in the outbox none either (two users with the same facts, fully
    indexed, one of them with a fact back in the outbox, as when its vector is being computed)."""
    for user in ("idle", "busy"):
        _store(api, write, user, "Keeps bees on the roof of the library")
        _store(api, write, user, "Keeps a spare hive in the garden shed")
    indexer.index_items(PendingIndex.objects.values_list("item_id", flat=True), [], vectors="here")
    busy = MemoryUser.objects.get(external_id="busy")
    PendingIndex.objects.create(kind="fact", item_id=Fact.objects.filter(user=busy).first().pk, user_id=busy.pk)
    counts = []
    for user in ("idle", "busy") * 3:
        with CaptureQueriesContext(connection) as queries:
            assert _direct(api, user, "bees on the roof")[0] == "Keeps bees on the roof of the library"
        assert not any("recall_pending" in q["sql"] for q in queries.captured_queries)
        counts.append((user, len(queries.captured_queries)))
    # After one warm-up recall each (a process's caches), every recall costs the same.
    assert len({n for _, n in counts[2:]}) == 1, counts


def test_a_write_on_a_web_host_adds_three_statements_on_the_term_tables(api, web_host, write):
    """The price of the path, paid by the write: the term rows' current digests (one read) and
    the rows (two inserts); the vector is left to the worker."""
    with CaptureQueriesContext(connection) as queries:
        _store(api, write, "nina", "Nina swims in the lake at dawn")
    on_terms = [q["sql"] for q in queries.captured_queries if "recall_doc" in q["sql"] or "recall_fts" in q["sql"]]
    assert len(on_terms) == 3, "\n".join(on_terms)
    assert not any("recall_vector" in q["sql"] for q in queries.captured_queries)


def _pks(fact: dict) -> list[int]:
    return list(Fact.objects.filter(uuid=fact["id"]).values_list("pk", flat=True))
