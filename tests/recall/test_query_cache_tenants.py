"""The query-embedding cache is kept apart per tenant, and no one is shown its size (issue 33,
item 9): a tenant could otherwise learn whether another tenant recently asked a given text,
from /health's cache size (it did not grow when it was) or from a faster answer."""

from __future__ import annotations

import pytest

from recall import sides
from recall.embeddings import embed_query, query_cache

pytestmark = pytest.mark.django_db

QUESTION = "where does the user live?"


class _Counting:
    """The real local model, counting the texts it is asked to embed."""

    def __init__(self, model) -> None:
        self._model = model
        self.model_name = model.model_name
        self.texts: list[str] = []

    def embed(self, texts):
        self.texts += texts
        return self._model.embed(texts)


@pytest.fixture
def counting(model, monkeypatch):
    """The model recall asks for a query's embedding (recall.sides.embedder_for, given the
    model the store serves)."""
    counter = _Counting(model)
    monkeypatch.setattr(sides, "embedder_for", lambda model_name: counter)
    return counter


@pytest.fixture
def both_users(api, bob_api, model, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post("/users/u1/facts", {"text": "User lives in Berlin."}).status_code == 201
        assert bob_api.post("/users/u1/facts", {"text": "User lives in Lisbon."}).status_code == 201


def test_another_tenants_question_is_embedded_again_not_read_from_the_cache(api, bob_api, both_users, counting):
    assert api.post("/users/u1/recall", {"query": QUESTION}).status_code == 200
    assert api.post("/users/u1/recall", {"query": QUESTION}).status_code == 200
    assert counting.texts == [QUESTION]  # the same tenant asking again is served from the cache
    assert bob_api.post("/users/u1/recall", {"query": QUESTION}).status_code == 200
    assert counting.texts == [QUESTION, QUESTION]  # bob's request did not hit alice's entry


def test_the_same_text_gets_one_entry_per_tenant(model):
    counter = _Counting(model)
    first = embed_query(QUESTION, counter, tenant_id="tenant-a")
    assert embed_query(QUESTION, counter, tenant_id="tenant-a") is first
    assert embed_query(QUESTION, counter, tenant_id="tenant-b") is not first
    assert counter.texts == [QUESTION, QUESTION]
    assert {key[0] for key in query_cache._data} == {"tenant-a", "tenant-b"}


def _mentions_a_cache(value) -> bool:
    if isinstance(value, dict):
        return any("cache" in str(name) or _mentions_a_cache(item) for name, item in value.items())
    if isinstance(value, list):
        return any(_mentions_a_cache(item) for item in value)
    return False


def test_health_shows_no_cache_size_to_a_tenant_key(api, both_users):
    assert api.post("/users/u1/recall", {"query": QUESTION}).status_code == 200  # one entry in the cache
    body = api.get("/health").json()
    assert "embedder" in body and isinstance(body["embedder"], dict)  # the keyed answer, with details
    assert not _mentions_a_cache(body), body
