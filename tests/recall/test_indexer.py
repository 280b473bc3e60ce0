"""The index outbox (recall/indexer.py): written in the change's transaction, indexed after
commit, drained when a kick was lost, kept when the embedder fails."""

from __future__ import annotations

import socket

import pytest
from django.db import transaction

from facts import services
from recall import fts, indexer, vec
from recall.models import PendingIndex
from recall.tables import EPISODES


def _store(user, text: str):
    return services.fact_store(user=user, text=text, actor=services.SYSTEM).fact


def test_a_change_commits_its_outbox_row_and_is_indexed_right_after_commit(alice, model, capture):
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    with capture() as callbacks:
        fact = _store(user, "User restores antique clocks.")
        assert list(PendingIndex.objects.values_list("kind", "item_id")) == [("fact", fact.pk)]
        assert fts.indexed_hashes([fact.pk]) == {}
    for callback in callbacks:
        callback()
    assert PendingIndex.objects.count() == 0
    assert fact.pk in fts.indexed_hashes([fact.pk]) and fact.pk in vec.indexed([fact.pk])


def test_a_rolled_back_change_leaves_no_outbox_row(alice, model):
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    with pytest.raises(RuntimeError), transaction.atomic():
        _store(user, "User restores antique clocks.")
        raise RuntimeError("the request failed after the write")
    assert PendingIndex.objects.count() == 0


def test_the_drain_indexes_what_a_lost_kick_left_in_the_outbox(alice, model, capture):
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    with capture():  # the after-commit work never runs: a crash right after the commit
        facts = [_store(user, f"User collects stamps from country number {n}.") for n in range(5)]
    assert PendingIndex.objects.count() == 5
    drained = indexer.drain()
    assert drained["pending"] == 0 and drained["indexed"] == 5 and drained["embedded"] == 5
    assert len(vec.indexed([f.pk for f in facts])) == 5


def test_with_vectors_computed_elsewhere_the_fts_rows_are_written_and_the_texts_sent(alice, model, capture):
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    with capture():
        fact = _store(user, "User restores antique clocks.")
    with capture() as callbacks:
        batch = indexer.index_items([fact.pk], [], vectors="queue")
    assert batch.indexed == 1 and batch.embedded == 0 and len(batch.to_embed) == 1
    assert fts.indexed_hashes([fact.pk]) and not vec.indexed([fact.pk])
    assert PendingIndex.objects.get().sent_at is not None  # in flight: the drain leaves it alone
    assert indexer.drain()["batches"] == 0
    for callback in callbacks:  # the embed queue's answer arrives (eager: embed_facts, store_vectors)
        callback()
    assert vec.indexed([fact.pk]) and PendingIndex.objects.count() == 0


def test_a_failing_embedder_keeps_the_items_in_the_outbox_and_their_words_findable(alice, model, capture, settings):
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    with capture():
        fact = _store(user, "User restores antique clocks.")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    settings.MEMORY_EMBEDDER = "openai"
    settings.MEMORY_EMBEDDING_MODEL = "text-embedding-3-small"
    settings.MEMORY_EMBEDDING_BASE_URL = f"http://127.0.0.1:{port}/v1"
    settings.MEMORY_EMBEDDING_TIMEOUT_SECONDS = 2.0
    batch = indexer.index_items([fact.pk], [], vectors="here")
    settings.MEMORY_EMBEDDER = "local"
    assert batch.embed_error and batch.indexed == 1 and fts.indexed_hashes([fact.pk])
    assert PendingIndex.objects.filter(item_id=fact.pk).exists()
    assert indexer.drain()["pending"] == 0  # the embedder is back: the next drain completes it


def test_a_forget_removes_the_index_rows_in_its_own_transaction(alice, model, capture):
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    with capture(execute=True):
        fact = _store(user, "User hides a zqforgetmenow key.")
    assert fts.indexed_hashes([fact.pk])
    with capture():  # nothing after commit runs: the rows must already be gone
        services.fact_forget(fact=fact, actor=services.SYSTEM)
    assert fts.indexed_hashes([fact.pk]) == {} and vec.indexed([fact.pk]) == {}


def test_erasing_a_user_drops_their_outbox_rows(alice, model, capture):
    from facts import privacy

    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    with capture():
        _store(user, "User restores antique clocks.")
    assert PendingIndex.objects.count() == 1
    receipt = privacy.user_erase(user=user, actor=services.SYSTEM)
    assert PendingIndex.objects.count() == 0 and receipt.counts["facts"] == 1
    assert fts.all_ids(EPISODES) == []


@pytest.fixture
def capture(django_capture_on_commit_callbacks):
    return django_capture_on_commit_callbacks
