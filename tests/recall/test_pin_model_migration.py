"""Migration recall 0013: a store filled under the old default model (all-MiniLM-L6-v2, no switch on
record) keeps serving it after the default became its int8 copy; its vectors stay found. Both engines."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from facts import services
from recall import switch
from recall.embeddings import INT8_MODEL_NAME, LOCAL_MODEL_NAME
from recall.models import EmbedderSwitch
from recall.services import recall
from tests.recall.test_embedder_switch import empty_vector_tables

pytestmark = pytest.mark.django_db(transaction=True)


def _migrate(target: str) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([("recall", target)])


@pytest.fixture
def user(alice, model):
    yield services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    empty_vector_tables()


def _vector_hits(user) -> list[str]:
    result = recall(user=user, query="what is my dog called?", k=3, mode="vector", log=False)
    return [item.fact.text for item in result.items if "vector_rank" in item.signals]


def test_a_store_filled_under_the_old_default_keeps_serving_its_model(user, settings):
    settings.MEMORY_EMBEDDING_LOCAL_MODEL = LOCAL_MODEL_NAME  # the default before
    services.fact_store(user=user, text="User adopted a dog called Biscuit.", actor=services.SYSTEM)
    _migrate("0012_turn_keys_with_facts")
    assert not EmbedderSwitch.objects.exists()

    settings.MEMORY_EMBEDDING_LOCAL_MODEL = INT8_MODEL_NAME  # the upgrade: the new default
    assert _vector_hits(user) == []  # what the migration prevents: int8 queries find no float vectors
    _migrate("0013_pin_the_model_a_store_holds")

    assert switch.state().live_model == LOCAL_MODEL_NAME
    assert _vector_hits(user) == ["User adopted a dog called Biscuit."]


def test_a_store_without_vectors_serves_the_settings_model(user, settings):
    _migrate("0012_turn_keys_with_facts")
    _migrate("0013_pin_the_model_a_store_holds")
    assert not EmbedderSwitch.objects.exists()
    settings.MEMORY_EMBEDDING_LOCAL_MODEL = INT8_MODEL_NAME
    services.fact_store(user=user, text="User adopted a dog called Biscuit.", actor=services.SYSTEM)
    assert switch.state().live_model == INT8_MODEL_NAME
    assert _vector_hits(user) == ["User adopted a dog called Biscuit."]


def test_a_store_that_switched_keeps_its_row(user, settings):
    settings.MEMORY_EMBEDDING_LOCAL_MODEL = LOCAL_MODEL_NAME
    services.fact_store(user=user, text="User adopted a dog called Biscuit.", actor=services.SYSTEM)
    EmbedderSwitch.objects.create(pk=1, live_slot="b", live_model="multilingual-e5-small-q4")
    _migrate("0012_turn_keys_with_facts")
    _migrate("0013_pin_the_model_a_store_holds")
    assert list(EmbedderSwitch.objects.values_list("live_slot", "live_model")) == [("b", "multilingual-e5-small-q4")]
