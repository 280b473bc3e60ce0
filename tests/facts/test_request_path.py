"""The request path's shortcuts: the API-key cache and the buffered log rows."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from facts import logbuffer
from facts.models import ApiKey
from profiles.metrics import tenant_metrics
from profiles.models import ContextLog
from recall.models import RecallLog


@pytest.fixture(autouse=True)
def empty_buffer_after(db, monkeypatch):
    # No flusher thread in the test process: woken by its timer, it would take the rows these
    # tests queue from under them, through a connection that cannot see their transaction.
    # The tests flush themselves; tests/service/test_gunicorn.py has the thread in a real server.
    monkeypatch.setattr(logbuffer, "_ensure_flusher", lambda: None)
    yield
    logbuffer.flush()  # rows a failed test left behind go into its own (rolled back) transaction
    logbuffer._wake.clear()


def _key_queries(api) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert api.get("/users/u1/facts").status_code != 401
    return sum('"facts_apikey"' in q["sql"] for q in ctx.captured_queries)


def test_a_key_seen_recently_is_not_looked_up_again(api):
    api.post("/users/u1/facts", {"text": "User likes tea."})
    assert _key_queries(api) == 0


def test_with_no_ttl_every_request_looks_the_key_up(api, settings):
    settings.MEMORY_API_KEY_CACHE_SECONDS = 0
    assert _key_queries(api) == 1


def test_a_revoked_key_stops_working_at_once(api, alice):
    assert api.post("/users/u1/facts", {"text": "User likes tea."}).status_code == 201
    for key in ApiKey.objects.filter(tenant=alice.tenant):
        key.revoke()
    assert api.get("/users/u1/facts").status_code == 401
    assert api.post("/users/u1/facts", {"text": "User likes coffee."}).status_code == 401


def test_a_key_revoked_by_a_bare_update_stops_working_when_the_cache_entry_expires(api, alice, settings):
    assert api.post("/users/u1/facts", {"text": "User likes tea."}).status_code == 201
    ApiKey.objects.filter(tenant=alice.tenant).update(revoked_at="2026-01-01T00:00:00Z")
    assert api.get("/users/u1/facts").status_code == 200  # cached for up to the TTL
    settings.MEMORY_API_KEY_CACHE_SECONDS = 0.000001  # expired now
    assert api.get("/users/u1/facts").status_code == 401


def test_recall_and_context_rows_wait_in_the_buffer_and_metrics_count_them(api, alice, settings):
    settings.MEMORY_LOG_BUFFER_ROWS = 1000
    settings.MEMORY_LOG_BUFFER_SECONDS = 3600  # no timed flush during the test
    logbuffer.flush()
    assert api.post("/users/u1/facts", {"text": "User plays the cello."}).status_code == 201
    for _ in range(3):
        assert api.post("/users/u1/recall", {"query": "cello"}).status_code == 200
    assert api.post("/users/u1/context", {"query": "cello", "max_tokens": 500}).status_code == 200
    assert (RecallLog.objects.count(), ContextLog.objects.count()) == (0, 0)
    assert logbuffer.pending() == 5  # the context block's own recall is logged too
    metrics = tenant_metrics(alice.tenant, window="24h")
    assert metrics["recall"]["requests"] == 4
    assert metrics["context"]["requests"] == 1
    assert logbuffer.pending() == 0 and RecallLog.objects.filter(tenant=alice.tenant).count() == 4


def test_a_full_buffer_wakes_the_flusher(api, alice, settings):
    settings.MEMORY_LOG_BUFFER_ROWS = 2
    logbuffer.flush()
    logbuffer.save_later(RecallLog(tenant_id=alice.tenant.pk, mode="hybrid", k=5, returned=0, latency_ms=1.0))
    assert not logbuffer._wake.is_set()
    logbuffer.save_later(RecallLog(tenant_id=alice.tenant.pk, mode="hybrid", k=5, returned=0, latency_ms=1.0))
    assert logbuffer._wake.is_set() and logbuffer.pending() == 2
    logbuffer.flush()


def test_rows_of_a_tenant_erased_while_they_waited_are_dropped_and_the_rest_written(alice, bob, settings):
    settings.MEMORY_LOG_BUFFER_ROWS = 1000
    settings.MEMORY_LOG_BUFFER_SECONDS = 3600
    logbuffer.flush()
    for tenant in (alice.tenant, bob.tenant):
        logbuffer.save_later(RecallLog(tenant_id=tenant.pk, mode="hybrid", k=5, returned=0, latency_ms=1.0))
    bob.tenant.delete()
    assert logbuffer.flush() == 2
    assert list(RecallLog.objects.values_list("tenant_id", flat=True)) == [alice.tenant.pk]
