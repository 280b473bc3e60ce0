"""A web host's writes in a burst ask for one index drain, not one each, and every item is still
indexed (recall/indexer.py `request_drain`; docs/measurements.md §20: a drain per web-host write
slowed the many-hosts drill's recovery from replica lag)."""

from __future__ import annotations

import pytest

from facts import services
from recall import fts, indexer, vec
from recall.models import PendingIndex

pytestmark = pytest.mark.django_db

WRITES = 20


@pytest.fixture
def host(monkeypatch, model):
    """This process as a web host (it neither embeds nor consumes the `db` queue) whose drain
    messages are recorded; `host["worker"] = True` makes it the worker that runs them."""
    role = {"worker": False, "sent": []}
    monkeypatch.setattr(indexer, "indexes_here", lambda: role["worker"])
    monkeypatch.setattr(indexer, "consumes", lambda queue: role["worker"])
    monkeypatch.setattr(indexer.drain_index, "apply_async", lambda *a, **k: role["sent"].append(k))
    monkeypatch.setattr(indexer, "_drain_due", 0.0, raising=False)  # no drain of an earlier test waits
    return role


def _burst(user, n: int, start: int = 0, *, capture) -> list[int]:
    pks = []
    for i in range(start, start + n):
        with capture(execute=True):  # each write commits and runs its after-commit work
            pks.append(
                services.fact_store(user=user, text=f"User owns a bicycle numbered {i}.", actor=services.SYSTEM).fact.pk
            )
    return pks


def test_a_burst_of_web_host_writes_sends_one_delayed_drain_and_it_indexes_every_item(
    alice, host, monkeypatch, django_capture_on_commit_callbacks
):
    # A burst is writes that commit within the delay: a loaded CI machine took 2.5 s for these 20.
    monkeypatch.setattr(indexer, "DRAIN_DELAY_SECONDS", 60.0)
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    pks = _burst(user, WRITES, capture=django_capture_on_commit_callbacks)
    assert len(host["sent"]) == 1  # one per write before
    assert host["sent"][0]["countdown"] == indexer.DRAIN_DELAY_SECONDS  # starts after the burst's commits
    assert set(fts.indexed_hashes(pks)) == set(pks)  # the web host wrote the term rows itself
    assert PendingIndex.objects.filter(item_id__in=pks).count() == WRITES  # the vectors wait

    host["worker"] = True  # the one drain, run by a worker
    drained = indexer.drain()
    assert drained["pending"] == 0
    assert set(vec.indexed(pks)) == set(pks)


def test_a_write_after_the_waiting_drain_has_started_asks_for_another(
    alice, host, monkeypatch, django_capture_on_commit_callbacks
):
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    _burst(user, 3, capture=django_capture_on_commit_callbacks)
    assert len(host["sent"]) == 1
    monkeypatch.setattr(indexer, "_drain_due", 0.0)  # DRAIN_DELAY_SECONDS later: that drain may have run
    _burst(user, 1, start=3, capture=django_capture_on_commit_callbacks)
    assert len(host["sent"]) == 2


def test_a_drain_the_broker_refused_is_asked_for_again_by_the_next_write(
    alice, host, monkeypatch, django_capture_on_commit_callbacks
):
    def refused(*args, **kwargs):
        host["sent"].append("refused")
        raise ConnectionError("broker down")

    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    monkeypatch.setattr(indexer.drain_index, "apply_async", refused)
    _burst(user, 1, capture=django_capture_on_commit_callbacks)
    _burst(user, 1, start=1, capture=django_capture_on_commit_callbacks)
    assert host["sent"] == ["refused", "refused"]
