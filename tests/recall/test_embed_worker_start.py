"""An `embed` worker without the `db` queue (the many-hosts layout: docs/deployment.md, "Worker
hosts", no DATABASE_URL) starts with the model its settings name and never opens the store:
not for the embedder switch's row at start, nor in each pool process after the fork. It
computes its vectors with that model (recall.index.compute_vectors), so that is the one to load.
Runs on both engines (Makefile PG_TESTS): the store it must not open is either."""

from __future__ import annotations

import gc
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.db.backends.base.base import BaseDatabaseWrapper

import memory_service.celery as worker
from recall import embeddings


@pytest.fixture
def store_opened(monkeypatch) -> list[str]:
    """The database aliases anything in this test tried to connect to (each attempt fails, as
    on a host without a database)."""
    opened: list[str] = []

    def ensure_connection(self) -> None:
        opened.append(self.alias)
        raise RuntimeError("this host has no database")

    monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", ensure_connection)
    return opened


@pytest.fixture
def consuming(monkeypatch):
    """Make the worker-start signal handlers see a worker consuming `queues`."""
    monkeypatch.setattr(worker, "_model_in_master", False)

    def start(*queues: str) -> None:
        declared = worker.app.amqp.queues
        monkeypatch.setattr(declared, "_consume_from", {name: declared[name] for name in queues})

    yield start
    gc.unfreeze()  # the handler freezes what the master holds before its pool forks


@pytest.mark.parametrize("queues", [("embed",), ("llm", "embed")])
def test_an_embed_worker_without_the_db_queue_loads_its_settings_model_without_opening_the_store(
    store_opened, consuming, queues
):
    consuming(*queues)

    worker._load_model_before_fork(sender=SimpleNamespace(pool_cls="prefork"))
    worker._warm_model_after_fork()

    assert store_opened == []
    assert worker._model_in_master
    loaded = embeddings.embedder_for(settings.MEMORY_EMBEDDING_LOCAL_MODEL)
    assert loaded.loaded


def test_a_worker_of_the_db_queue_asks_the_store_which_model_is_live(store_opened, consuming):
    # It has the database: after a live switch it must load the model recall serves.
    consuming("db", "embed")

    worker._load_model_before_fork(sender=SimpleNamespace(pool_cls="solo"))

    assert store_opened == ["default"]
