"""Changing the embedding model on a live store (recall/switch.py, `manage.py embedder_switch`):
the new model's vectors are built beside the old, the switch is atomic, the old vectors stay for
the way back, and recall answers from vectors all along. Both engines."""

from __future__ import annotations

import threading
import time
from io import StringIO

import numpy as np
import pytest
from django.core.management import CommandError, call_command
from django.db import connection, connections

from facts import services
from recall import switch, vec
from recall.embeddings import E5_MODEL_NAME, INT8_MODEL_NAME, embedder_for, embedder_state, query_cache
from recall.reports import embedder_health, embedder_report_save
from recall.services import recall
from recall.tables import EPISODES, FACTS

pytestmark = pytest.mark.django_db(transaction=True)

FIRST = INT8_MODEL_NAME  # the default model: what a store serves before any switch

FACTS_SAID = [
    "User adopted a dog called Biscuit last spring.",
    "User writes code in Emacs every day.",
    "User's sister lives in Porto and teaches chemistry.",
    "User is training for the Lisbon half marathon in October.",
    "User is allergic to hazelnuts.",
    "User plays the cello in a community orchestra.",
]
QUESTIONS = [
    "what is my dog called?",
    "which editor do I use?",
    "where does my sister live?",
    "what race am I training for?",
]


@pytest.fixture
def store(alice, model):
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    facts = [services.fact_store(user=user, text=text, actor=services.SYSTEM).fact for text in FACTS_SAID]
    yield user, facts
    empty_vector_tables()


def empty_vector_tables() -> None:
    """The second slot's rows are raw SQL, which the test database's flush does not empty."""
    with connection.cursor() as cursor:
        for table in ("recall_vector_b", "recall_episode_vector_b", "recall_vector", "recall_episode_vector"):
            cursor.execute(f"DELETE FROM {table}")


def _vector_answer(user, question: str):
    result = recall(user=user, query=question, k=3, mode="vector", log=False)
    assert not result.degraded, result.stats
    assert result.items, f"no answer to {question!r}"
    first = result.items[0]
    assert "vector_rank" in first.signals, f"{question!r} was answered without a vector hit: {first.signals}"
    return first


class Load:
    """Recalls in a loop in another thread (its own connection) until stopped."""

    def __init__(self, user) -> None:
        self.user, self.errors, self.latencies, self.done = user, [], [], 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run)

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                question = QUESTIONS[self.done % len(QUESTIONS)]
                started = time.perf_counter()
                try:
                    _vector_answer(self.user, question)
                    hybrid = recall(user=self.user, query=question, k=3, mode="hybrid", log=False)
                    assert hybrid.items and not hybrid.degraded
                except Exception as exc:  # every failure is reported, none stops the load
                    self.errors.append(f"{question!r}: {type(exc).__name__}: {exc}")
                self.latencies.append(time.perf_counter() - started)
                self.done += 1
        finally:
            connections.close_all()

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=120)


def _models_in(table: str) -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT DISTINCT model FROM {table}")
        return {row[0] for row in cursor.fetchall()}


def test_recall_answers_from_vectors_while_the_model_is_built_switched_and_switched_back(store):
    user, facts = store
    assert switch.state().live_model == FIRST
    with Load(user) as load:
        switch.start(E5_MODEL_NAME)
        # Written while the build runs: the switch catches it up.
        late = services.fact_store(user=user, text="User keeps bees on the roof.", actor=services.SYSTEM).fact
        switch.build(batch=2)
        switch.switch(batch=2)
        while load.done < 8:
            time.sleep(0.05)
        assert switch.state().live_model == E5_MODEL_NAME
        switch.start(FIRST)  # the way back: the kept vectors, only changes embedded again
        switch.build(batch=2)
        switch.switch(batch=2)
        while load.done < 12:
            time.sleep(0.05)
    assert load.errors == [], load.errors[:5]
    now = switch.state()
    assert (now.live_slot, now.live_model, now.kept_model) == ("a", FIRST, E5_MODEL_NAME)
    assert _models_in("recall_vector") == {FIRST} and _models_in("recall_vector_b") == {E5_MODEL_NAME}
    assert set(vec.indexed([f.pk for f in [*facts, late]])) == {f.pk for f in [*facts, late]}


def test_after_the_switch_the_query_is_embedded_with_the_new_model_and_read_from_its_vectors(store):
    user, facts = store
    embedder_report_save(error="OSError: the old model's file went missing", at=time.time(), worker="w1")
    switch.start(E5_MODEL_NAME)
    switch.build()
    assert _vector_answer(user, "what is my dog called?").fact.pk == facts[0].pk  # still the old model
    switch.switch()
    hit = _vector_answer(user, "what is my dog called?")
    assert hit.fact.pk == facts[0].pk
    e5 = embedder_for(E5_MODEL_NAME)
    expected = float(e5.embed_queries(["what is my dog called?"])[0] @ e5.embed([_embed_text(facts[0])])[0])
    assert hit.signals["vector_similarity"] == pytest.approx(expected, abs=1e-3)
    assert embedder_state()["model"] == E5_MODEL_NAME and embedder_state()["kept_model"] == FIRST
    health = embedder_health()  # an error the old model's workers reported is older than the switch
    assert health["ready"] and health["workers"]["last_ok_at"] > health["workers"]["last_error_at"]
    # The query cache is keyed by model: no old-model vector is served for the same text.
    assert {key[1] for key in query_cache._data} == {FIRST, E5_MODEL_NAME}


def test_a_recall_that_read_the_switch_before_it_committed_scans_the_slot_it_read(store):
    """Between the switch read and the vector scan a switch may commit (the race a CI run hit
    under load): the scan stays on the slot and model the query was embedded under, both ways."""
    from recall.embeddings import embed_query
    from recall.sides import VectorSide

    user, facts = store
    for target in (E5_MODEL_NAME, FIRST):
        before = switch.state()
        query = embed_query("what is my dog called?", embedder_for(before.live_model), tenant_id=user.tenant_id)
        side = VectorSide(user.pk, query, None, FACTS, before)
        switch.start(target)
        switch.build()
        switch.switch()
        hits = side.top(3, 3)
        assert hits and hits[0][0] == facts[0].pk, (before, hits)


def _embed_text(fact) -> str:
    from recall import index

    return index.live_documents([fact.pk])[fact.pk].embed_text


def test_a_build_stopped_halfway_resumes_where_it_was(store, monkeypatch):
    user, facts = store
    switch.start(E5_MODEL_NAME)
    calls = []
    real = switch._fill

    def fail_on_the_second_batch(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt  # the operator's Ctrl-C
        return real(*args, **kwargs)

    monkeypatch.setattr(switch, "_fill", fail_on_the_second_batch)
    with pytest.raises(KeyboardInterrupt):
        switch.build(batch=2)
    assert switch.missing_count() == len(facts) - 2
    monkeypatch.setattr(switch, "_fill", real)
    assert switch.build(batch=2) == len(facts) - 2
    assert switch.missing_count() == 0


def test_a_forgotten_fact_leaves_no_vector_in_either_slot(store):
    user, facts = store
    switch.start(E5_MODEL_NAME)
    switch.build()
    switch.switch()
    assert switch.state().kept_model == FIRST
    services.fact_forget(fact=facts[1], actor=services.SYSTEM)
    for table in ("recall_vector", "recall_vector_b"):
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT count(*) FROM {table} WHERE fact_id = %s", [facts[1].pk])
            assert cursor.fetchone()[0] == 0, f"the forgotten fact's vector stayed in {table}"
    assert vec.count_user(user.pk) == 2 * (len(facts) - 1)  # the erase preview counts both slots
    assert vec.delete_user(user.pk) == 2 * (len(facts) - 1) and vec.count_user(user.pk, EPISODES) == 0


def test_the_kept_vectors_block_another_build_until_dropped(store, settings):
    switch.start(E5_MODEL_NAME)
    switch.build()
    switch.switch()
    settings.MEMORY_EMBEDDER, settings.MEMORY_EMBEDDING_MODEL = "openai", "an-endpoint-model"
    with pytest.raises(switch.SwitchError, match="drop"):
        switch.start("an-endpoint-model")  # building it would overwrite the way back
    assert switch.drop() == len(store[1])
    assert switch.state().kept_model == "" and _models_in("recall_vector") == set()


def test_a_vector_of_a_model_no_longer_served_never_replaces_the_live_one(store):
    user, facts = store
    switch.start(E5_MODEL_NAME)
    switch.build()
    switch.switch()
    before = vec.vectors([facts[0].pk])[facts[0].pk]
    stale = (
        facts[0].pk,
        user.pk,
        FIRST,
        vec.indexed([facts[0].pk])[facts[0].pk][1],
        vec.to_blob(np.ones(384)),
    )
    assert vec.upsert([stale], FACTS) == 0  # computed with the old model before the switch, written after
    assert np.array_equal(vec.vectors([facts[0].pk])[facts[0].pk], before)


def test_the_command_walks_an_operator_through_and_refuses_what_the_state_does_not_allow(store):
    out = StringIO()
    with pytest.raises(CommandError, match="No model is being built"):
        call_command("embedder_switch", "build", stdout=out, stderr=StringIO())
    with pytest.raises(CommandError, match="already serves"):
        call_command("embedder_switch", "start", FIRST, stdout=out, stderr=StringIO())
    with pytest.raises(CommandError, match="No local embedding model"):
        call_command("embedder_switch", "start", "no-such-model", stdout=out, stderr=StringIO())
    call_command("embedder_switch", "start", E5_MODEL_NAME, stdout=out, stderr=StringIO())
    call_command("embedder_switch", "build", stdout=out, stderr=StringIO())
    call_command("embedder_switch", "switch", stdout=out, stderr=StringIO())
    call_command("embedder_switch", "status", stdout=out, stderr=StringIO())
    assert f"live: {E5_MODEL_NAME} (slot b)" in out.getvalue()
    call_command("embedder_switch", "back", stdout=out, stderr=StringIO())
    assert switch.state().live_model == FIRST
    call_command("embedder_switch", "drop", stdout=out, stderr=StringIO())
    with pytest.raises(CommandError, match="no way back"):
        call_command("embedder_switch", "back", stdout=out, stderr=StringIO())


def test_a_recall_reads_the_switch_only_when_it_changed_and_then_answers_with_the_new_model(store):
    """The switch's row is read once per process and checked in the vector read's own statement
    (recall.sides.switch_seen): a recall runs no read of it while it stands, and the first recall
    after a switch (or a switch back) reads it, embeds the query with the live model and scans its
    slot, as a recall that read the row first would."""
    from django.test.utils import CaptureQueriesContext

    user, facts = store
    _vector_answer(user, "what is my dog called?")  # the process has read the switch

    def switch_reads(question: str):
        with CaptureQueriesContext(connection) as captured:
            hit = _vector_answer(user, question)
        return hit, sum("recall_embedderswitch" in q["sql"] and 'live_slot" AS' in q["sql"] for q in captured)

    assert switch_reads("which editor do I use?")[1] == 0
    for target in (E5_MODEL_NAME, FIRST):
        switch.start(target)
        switch.build()
        switch.switch()
        hit, reads = switch_reads("what is my dog called?")
        assert reads == 1 and hit.fact.pk == facts[0].pk
        model = embedder_for(target)
        expected = float(model.embed_queries(["what is my dog called?"])[0] @ model.embed([_embed_text(facts[0])])[0])
        assert hit.signals["vector_similarity"] == pytest.approx(expected, abs=1e-3)
        assert switch_reads("which editor do I use?")[1] == 0
