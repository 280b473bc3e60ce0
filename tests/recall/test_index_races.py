"""A forget that commits while the indexer runs never has its words written back: the
indexer reads the documents again inside its write transaction (recall/indexer.py).

The interleaving is forced: the indexer's first read is wrapped so that, right after it,
another thread (its own connection) forgets the fact and is given a second to commit."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from facts import services
from facts.models import Fact, Turn
from facts.services.changes import withdraw_episodes
from recall import embed_queue, fts, index, indexer, vec
from recall.tables import EPISODES

pytestmark = pytest.mark.django_db(transaction=True)


def _in_another_thread(work) -> threading.Thread:
    def run():
        try:
            work()
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _forget_right_after(module, reader: str, forget, monkeypatch) -> list[threading.Thread]:
    read, started = getattr(module, reader), []

    def read_then_let_a_forget_commit(*args, **kwargs):
        found = read(*args, **kwargs)
        if not started:
            started.append(_in_another_thread(forget))
            started[0].join(timeout=1.0)  # the forget commits now, unless the write lock holds it back
        return found

    monkeypatch.setattr(module, reader, read_then_let_a_forget_commit)
    return started


def test_a_fact_forgotten_while_it_is_indexed_leaves_no_index_row(alice, model, monkeypatch):
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    fact = services.fact_store(user=user, text="User hides the zqracevault key.", actor=services.SYSTEM).fact
    fts.delete([fact.pk])
    vec.delete([fact.pk])
    started = _forget_right_after(
        indexer, "_documents", lambda: services.fact_forget(fact=fact, actor=services.SYSTEM), monkeypatch
    )
    indexer.index_items([fact.pk], [], vectors="here")
    started[0].join(timeout=60)
    assert not Fact.objects.filter(pk=fact.pk).exists()
    assert fts.indexed_hashes([fact.pk]) == {}, "the forgotten fact's words were written back into the index"
    assert vec.indexed([fact.pk]) == {}, "a vector of the forgotten fact was written back"


def test_an_episode_withdrawn_during_its_sync_leaves_no_index_row(alice, model, monkeypatch):
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    turn = Turn.objects.create(
        tenant=alice.tenant,
        user=user,
        session_id="s1",
        turn_id="t1",
        user_input="I keep a zqraceepisode.",
        state="done",
    )

    def withdraw():
        with transaction.atomic():
            Turn.objects.filter(pk=turn.pk).update(episode_withdrawn=True)
            withdraw_episodes(user.pk, [turn.pk])

    started = _forget_right_after(indexer, "_documents", withdraw, monkeypatch)
    indexer.index_items([], [turn.pk], vectors="here")
    started[0].join(timeout=60)
    assert fts.indexed_hashes([turn.pk], EPISODES) == {}, "the withdrawn episode was written back"


def test_a_fact_forgotten_while_its_vector_from_the_embed_queue_is_stored_leaves_no_vector(alice, model, monkeypatch):
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    fact = services.fact_store(user=user, text="User hides the zqracevector key.", actor=services.SYSTEM).fact
    doc = index.documents([fact])[fact.pk]
    item = {"kind": "fact", "fact_id": fact.pk, "user_id": user.pk, "digest": doc.digest, "text": "x"}
    computed = index.compute_vectors([item])
    vec.delete([fact.pk])
    started = _forget_right_after(
        embed_queue, "_documents", lambda: services.fact_forget(fact=fact, actor=services.SYSTEM), monkeypatch
    )
    embed_queue.write_vectors(computed)
    started[0].join(timeout=60)
    assert vec.indexed([fact.pk]) == {}, "a vector of the forgotten fact was stored after the forget"
