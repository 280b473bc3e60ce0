"""The LangGraph BaseStore adapter (memory_service_client.adapters.langgraph) against a live server:
a conformance suite written from BaseStore's documented contract (langgraph 1.2.24 ships no store
tests in its wheel): get/put/search/delete/list_namespaces and batch/abatch, delete is a put of None,
namespace labels cannot contain "." or start with "langgraph"."""

from __future__ import annotations

import pytest
from langgraph.store.base import GetOp, InvalidNamespaceError, PutOp, SearchOp
from memory_service_client import Client
from memory_service_client.adapters.langgraph import MemoryServiceStore, item_slot

from tests.connectors.aio import run_async

pytestmark = [pytest.mark.integration, pytest.mark.slow]


@pytest.fixture
def store(live):
    client = Client(live.alice, live.base)
    yield MemoryServiceStore(client)
    client.close()


def test_put_then_get_and_a_missing_key(store):
    store.put(("lg-ana", "prefs"), "seat", {"text": "Prefers window seats"})
    item = store.get(("lg-ana", "prefs"), "seat")
    assert item.value == {"text": "Prefers window seats"} and item.key == "seat"
    assert item.namespace == ("lg-ana", "prefs") and item.created_at <= item.updated_at
    assert store.get(("lg-ana", "prefs"), "nothing") is None
    assert store.get(("lg-nobody", "prefs"), "seat") is None  # a user the service has not seen


def test_a_new_value_replaces_the_old_and_history_keeps_it(store):
    store.put(("lg-ben", "profile"), "city", {"city": "Berlin", "since": 2020})
    store.put(("lg-ben", "profile"), "city", {"city": "Munich", "since": 2024})
    assert store.get(("lg-ben", "profile"), "city").value == {"city": "Munich", "since": 2024}
    [fact] = [f for f in store.client.iter_facts("lg-ben") if f.key == item_slot(("lg-ben", "profile"), "city")]
    assert [h.action for h in store.client.fact_history(fact.id)] == ["insert", "insert", "supersede"]


def test_delete_is_a_put_of_none(store):
    store.put(("lg-cy", "notes"), "a", {"text": "Keeps bees"})
    store.put(("lg-cy", "notes"), "b", {"text": "Grows tomatoes"})
    store.delete(("lg-cy", "notes"), "a")
    store.batch([PutOp(("lg-cy", "notes"), "b", None)])
    assert store.get(("lg-cy", "notes"), "a") is None and store.get(("lg-cy", "notes"), "b") is None
    store.delete(("lg-cy", "notes"), "never-stored")  # deleting what is not there is fine


@pytest.mark.parametrize("namespace", [(), ("lg-dee", "a.b"), ("langgraph", "x"), ("lg-dee", "")])
def test_invalid_namespaces_are_refused_and_nothing_is_stored(store, namespace):
    with pytest.raises(InvalidNamespaceError):
        store.put(namespace, "k", {"text": "Likes jazz"})
    with pytest.raises(InvalidNamespaceError):
        store.batch([PutOp(namespace, "k", {"text": "Likes jazz"})])
    assert store.get(("lg-dee",), "k") is None and store.search(("lg-dee",)) == []


def test_search_by_prefix_filter_and_page(store):
    for i, (kind, price) in enumerate([("book", 12), ("book", 30), ("film", 8), ("book", 5)]):
        store.put(("lg-eva", "items", kind), f"i{i}", {"kind": kind, "price": price})
    store.put(("lg-eva", "other"), "x", {"kind": "book", "price": 99})
    books = store.search(("lg-eva", "items"), filter={"kind": "book"}, limit=10)
    assert [b.key for b in books] == ["i3", "i1", "i0"]  # newest first
    assert [b.key for b in store.search(("lg-eva", "items"), filter={"price": {"$gt": 10}})] == ["i1", "i0"]
    assert [b.key for b in store.search(("lg-eva", "items"), limit=2, offset=1)] == ["i2", "i1"]
    assert {b.key for b in store.search(("lg-eva",), limit=10)} == {"i0", "i1", "i2", "i3", "x"}


def test_search_with_a_query_ranks_by_recall(store):
    store.put(("lg-fay", "memories"), "m1", {"text": "Allergic to peanuts"})
    store.put(("lg-fay", "memories"), "m2", {"text": "Works as a carpenter in Lyon"})
    store.put(("lg-fay", "elsewhere"), "m3", {"text": "Allergic to shellfish"})
    found = store.search(("lg-fay", "memories"), query="food allergy", limit=5)
    assert found[0].key == "m1" and found[0].score is not None
    assert "m3" not in {item.key for item in found}  # outside the prefix


def test_list_namespaces(store):
    for ns in [("lg-gus", "a", "x"), ("lg-gus", "a", "y"), ("lg-gus", "b")]:
        store.put(ns, "k", {"text": f"Note in {'/'.join(ns[1:])}"})
    assert store.list_namespaces(prefix=("lg-gus",)) == [("lg-gus", "a", "x"), ("lg-gus", "a", "y"), ("lg-gus", "b")]
    assert store.list_namespaces(prefix=("lg-gus",), max_depth=2) == [("lg-gus", "a"), ("lg-gus", "b")]
    assert store.list_namespaces(prefix=("lg-gus",), suffix=("y",)) == [("lg-gus", "a", "y")]
    with pytest.raises(InvalidNamespaceError):
        store.list_namespaces()  # the user must be named


def test_batch_answers_in_order_and_abatch_does_the_same(store):
    ns = ("lg-hal", "s")
    results = store.batch(
        [
            PutOp(ns, "k", {"text": "Plays the oboe"}),
            GetOp(ns, "k"),
            SearchOp(ns, limit=5),
            GetOp(ns, "missing"),
        ]
    )
    assert results[0] is None and results[1].value == {"text": "Plays the oboe"}
    assert [i.key for i in results[2]] == ["k"] and results[3] is None

    async def main():
        await store.aput(ns, "k2", {"text": "Plays the bassoon"})
        return await store.aget(ns, "k2"), await store.asearch(ns, limit=5)

    item, found = run_async(main)
    assert item.value == {"text": "Plays the bassoon"} and {i.key for i in found} == {"k", "k2"}


def test_another_tenant_sees_nothing(store, live):
    store.put(("lg-ida", "p"), "k", {"text": "Speaks Basque"})
    with Client(live.bob, live.base) as bob:
        other = MemoryServiceStore(bob)
        assert other.get(("lg-ida", "p"), "k") is None and other.search(("lg-ida",)) == []
