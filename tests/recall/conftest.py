"""Recall fixtures: the real local model (loaded once per session) and a writer
that runs the write path's after-commit hooks, so the index sync really happens."""

from __future__ import annotations

import pytest

from facts import services as fs
from facts.models import Fact
from recall.embeddings import get_embedder, query_cache


@pytest.fixture(scope="session")
def model():
    embedder = get_embedder()
    embedder.embed(["load the model once for the whole session"])
    return embedder


@pytest.fixture(autouse=True)
def _fresh_query_cache():
    query_cache.clear()
    yield
    query_cache.clear()


class Memory:
    """Writes through facts.services and runs the on-commit callbacks (facts_changed -> index sync)."""

    def __init__(self, tenant, capture):
        self.tenant = tenant
        self.capture = capture

    def user(self, user_id: str = "u1", tenant=None):
        return fs.memory_user_get_or_create(tenant=tenant or self.tenant, user_id=user_id)

    def store(self, user, text: str, **kwargs):
        with self.capture(execute=True):
            return fs.fact_store(user=user, text=text, actor=fs.SYSTEM, **kwargs).fact

    def said(self, user, text: str, when):
        """A fact stored now and dated as said at `when` (last mentioned, and valid from, then)."""
        fact = self.store(user, text)
        Fact.objects.filter(pk=fact.pk).update(last_mentioned_at=when, valid_from=when)
        fact.refresh_from_db()
        return fact

    def call(self, fn, **kwargs):
        with self.capture(execute=True):
            return fn(actor=fs.SYSTEM, **kwargs)


@pytest.fixture
def memory(alice, model, django_capture_on_commit_callbacks):
    return Memory(alice.tenant, django_capture_on_commit_callbacks)


@pytest.fixture
def post_turn(model, settings, django_capture_on_commit_callbacks):
    """POST a turn and run its extraction with the offline rules extractor (no LLM key)."""
    settings.OPENAI_API_KEY = ""

    def post(client, turn_id: str, text: str, *, user: str = "u1", reply: str = "") -> None:
        body = {"session_id": "s1", "turn_id": turn_id, "user_input": text, "assistant_response": reply}
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(f"/users/{user}/turns", body)
        assert response.status_code in (200, 202), response.content

    return post
