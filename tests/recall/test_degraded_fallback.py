from __future__ import annotations

import socket

import pytest

from facts.models import Fact
from recall import fts, vec
from recall.embeddings import embedder_state
from recall.services import recall

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed_port_embedder(settings):
    """The OpenAI-compatible provider pointed at a local port nobody listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    settings.MEMORY_EMBEDDER = "openai"
    settings.MEMORY_EMBEDDING_MODEL = "text-embedding-3-small"
    settings.MEMORY_EMBEDDING_BASE_URL = f"http://127.0.0.1:{port}/v1"
    settings.MEMORY_EMBEDDING_TIMEOUT_SECONDS = 2.0
    return settings


def test_recall_falls_back_to_lexical_when_the_embedder_fails(memory, closed_port_embedder):
    user = memory.user()
    closed_port_embedder.MEMORY_EMBEDDER = "local"
    target = memory.store(user, "User is allergic to peanuts.")
    memory.store(user, "User lives in Berlin.")
    closed_port_embedder.MEMORY_EMBEDDER = "openai"

    hybrid = recall(user=user, query="peanuts allergy", log=False)
    assert hybrid.degraded is True and hybrid.mode == "hybrid"
    assert hybrid.items[0].fact.pk == target.pk
    assert "vector_rank" not in hybrid.items[0].signals

    vector = recall(user=user, query="peanuts", mode="vector", log=False)
    assert (vector.mode, vector.degraded) == ("lexical", True)
    assert vector.items[0].fact.pk == target.pk

    state = embedder_state()
    assert state["provider"] == "openai" and state["ready"] is False
    assert "Connection" in state["last_error"] or "connect" in state["last_error"].lower()


def test_a_write_survives_a_failing_embedder_and_stays_findable_by_words(memory, closed_port_embedder):
    user = memory.user()
    fact = memory.store(user, "User restores antique clocks.")
    assert Fact.objects.get(pk=fact.pk).embedding_model == ""  # visibly not embedded yet
    assert vec.vectors([fact.pk]) == {}
    assert [fid for fid, _ in fts.search(user.pk, ["clocks"], 5)] == [fact.pk]
    result = recall(user=user, query="antique clocks", log=True)
    assert result.degraded and result.items[0].fact.pk == fact.pk
    from recall.models import RecallLog

    assert RecallLog.objects.get().degraded is True


def test_an_embed_workers_failure_shows_in_the_health_of_a_process_that_never_embedded(api, closed_port_embedder):
    from recall import embeddings
    from recall.tasks import embed_facts

    item = {"fact_id": 1, "user_id": 1, "digest": "d", "text": "User restores antique clocks."}
    assert embed_facts.apply(args=[[item]]).get() == 0  # the worker's embedder is down
    # The web host is another process: its own record of embedder calls is empty.
    embeddings._state.update(last_error=None, last_error_at=None, last_ok_at=None)
    embedder = api.get("/health").json()["embedder"]
    assert embedder["ready"] is False
    assert "connect" in embedder["last_error"].lower() and embedder["workers"]["last_error_at"] is not None
