"""The query-embedding cache (recall.embeddings.embed_query): per process, bounded, keyed by tenant and model."""

from __future__ import annotations

import numpy as np

from recall import embeddings
from recall.embeddings import embed_query, query_cache
from recall.lru import LRU

TENANT = "00000000-0000-0000-0000-00000000000a"


class _Counting:
    """The real local model, counting the texts it is asked to embed; `model_name` can be changed."""

    def __init__(self, model, model_name: str | None = None) -> None:
        self._model = model
        self.model_name = model_name or model.model_name
        self.texts: list[str] = []

    def embed(self, texts):
        self.texts += texts
        return self._model.embed(texts)


def test_a_repeated_query_is_not_embedded_again(model):
    counting = _Counting(model)
    first = embed_query("where does the user live?", counting, tenant_id=TENANT)
    again = embed_query("where does the user live?", counting, tenant_id=TENANT)
    assert counting.texts == ["where does the user live?"]
    assert again is first
    assert np.array_equal(first, model.embed(["where does the user live?"])[0])
    assert not first.flags.writeable  # shared by every request that asks it again


def test_another_model_does_not_reuse_the_vector(model):
    embed_query("where does the user live?", _Counting(model), tenant_id=TENANT)
    other = _Counting(model, model_name="another-model")
    embed_query("where does the user live?", other, tenant_id=TENANT)
    assert other.texts == ["where does the user live?"]
    assert len(query_cache._data) == 2


def test_the_cache_keeps_the_most_recently_used_entries():
    cache = LRU(size=2)
    cache.put(("m", "a"), np.zeros(1))
    cache.put(("m", "b"), np.ones(1))
    assert cache.get(("m", "a")) is not None  # "a" is now the most recent
    cache.put(("m", "c"), np.ones(1))
    assert cache.get(("m", "b")) is None
    assert cache.get(("m", "a")) is not None
    assert cache.get(("m", "c")) is not None
    assert len(cache._data) == 2


def test_the_process_cache_is_bounded(model, monkeypatch):
    assert query_cache.size == 2048
    small = LRU(size=3)  # the same bound as the process's cache, reached sooner
    monkeypatch.setattr(embeddings, "query_cache", small)
    counting = _Counting(model)
    for i in range(5):
        embed_query(f"question {i}", counting, tenant_id=TENANT)
    assert len(small._data) == 3
    embed_query("question 0", counting, tenant_id=TENANT)  # evicted, so embedded again
    assert counting.texts.count("question 0") == 2
