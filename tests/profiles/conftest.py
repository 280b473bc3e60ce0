"""Profiles fixtures: a fact writer that runs the write path's after-commit hooks
(facts_changed -> recall index sync), as in production."""

from __future__ import annotations

import pytest

from facts import services
from facts.models import Fact


@pytest.fixture
def said(settings, django_capture_on_commit_callbacks):
    """POST a turn and run its extraction with the offline rules extractor (no LLM key)."""
    settings.OPENAI_API_KEY = ""

    def post(client, turn_id: str, text: str) -> None:
        body = {"session_id": "s1", "turn_id": turn_id, "user_input": text}
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post("/users/u1/turns", body)
        assert response.status_code in (200, 202), response.content

    return post


@pytest.fixture
def store(django_capture_on_commit_callbacks):
    def write(user, text: str, category: str = "other", key: str = "", confidence: float | None = None, index=True):
        # index=False leaves the sync to a later `reindex` (one batch instead of one task per fact).
        with django_capture_on_commit_callbacks(execute=index):
            return services.fact_store(
                user=user, text=text, actor=services.SYSTEM, category=category, key=key or None, confidence=confidence
            ).fact

    return write


@pytest.fixture
def reindex():
    """Index all facts of a user in one batch, through recall's own sync task."""

    def run(user) -> None:
        from recall.tasks import sync_facts

        sync_facts(list(Fact.objects.filter(user=user).values_list("pk", flat=True)))

    return run
