"""A forget that commits while the index sync runs never has its words written back: the
sync reads the facts inside its write transaction (recall/index.py, recall/episode_index.py).

The interleaving is forced: the sync's read is wrapped so that, right after it, another
thread (its own connection) forgets the fact and is given a second to commit."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from facts import services
from facts.models import Fact, Turn
from recall import episode_index, fts, index
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


def test_a_fact_forgotten_during_the_lexical_sync_leaves_no_index_row(alice, model, monkeypatch):
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    fact = services.fact_store(user=user, text="User hides the zqracevault key.", actor=services.SYSTEM).fact
    fts.delete([fact.pk])
    started = _forget_right_after(
        index, "_live_documents", lambda: services.fact_forget(fact=fact, actor=services.SYSTEM), monkeypatch
    )
    index.sync_lexical([fact.pk])
    started[0].join(timeout=60)
    assert not Fact.objects.filter(pk=fact.pk).exists()
    assert fts.indexed_hashes([fact.pk]) == {}, "the forgotten fact's words were written back into the index"


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
        Turn.objects.filter(pk=turn.pk).update(episode_withdrawn=True)
        episode_index.sync_episodes([turn.pk])

    started = _forget_right_after(episode_index, "episode_documents", withdraw, monkeypatch)
    episode_index.sync_episodes([turn.pk])
    started[0].join(timeout=60)
    assert fts.indexed_hashes([turn.pk], EPISODES) == {}, "the withdrawn episode was written back"


def test_a_fact_forgotten_while_its_vector_is_stored_leaves_no_vector(alice, model, monkeypatch):
    from recall import vec

    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    fact = services.fact_store(user=user, text="User hides the zqracevector key.", actor=services.SYSTEM).fact
    doc = index.documents([fact])[fact.pk]
    computed = index.compute_vectors([{"fact_id": fact.pk, "user_id": user.pk, "digest": doc.digest, "text": "x"}])
    vec.delete([fact.pk])
    started = _forget_right_after(
        index, "_live_documents", lambda: services.fact_forget(fact=fact, actor=services.SYSTEM), monkeypatch
    )
    index.store_vectors(computed)
    started[0].join(timeout=60)
    assert vec.indexed([fact.pk]) == {}, "a vector of the forgotten fact was stored after the forget"
