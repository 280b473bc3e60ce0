"""Extraction tests: Celery eager, the real openai client against tests.fake_llm."""

from __future__ import annotations

import pytest

from facts.models import Turn
from tests.fake_llm import FakeLLM, fake_llm  # noqa: F401  (the fixture)


class Turns:
    """Posts turns through the API and runs the after-commit extraction chain inline."""

    def __init__(self, api, capture, user_id="u1"):
        self.api = api
        self.capture = capture
        self.user_id = user_id

    def post(self, user_input, *, session_id="s1", turn_id=None, user_id=None, expect=202, **extra):
        body = {"session_id": session_id, "user_input": user_input, **extra}
        if turn_id:
            body["turn_id"] = turn_id
        with self.capture(execute=True):
            r = self.api.post(f"/users/{user_id or self.user_id}/turns", body)
        assert r.status_code == expect, r.content
        return r.json()

    def get(self, turn_id, *, user_id=None):
        r = self.api.get(f"/users/{user_id or self.user_id}/turns/{turn_id}")
        assert r.status_code == 200, r.content
        return r.json()

    def retry(self, turn_id, *, expect=202):
        with self.capture(execute=True):
            r = self.api.post(f"/users/{self.user_id}/turns/{turn_id}/retry")
        assert r.status_code == expect, r.content
        return r.json()

    def run_task_again(self, task, *args):
        """A duplicate delivery of one task message, as the broker may do."""
        with self.capture(execute=True):
            task.apply(args=args).get()

    @staticmethod
    def model(turn_id) -> Turn:
        return Turn.objects.get(turn_id=turn_id)


@pytest.fixture
def turns(api, django_capture_on_commit_callbacks):
    return Turns(api, django_capture_on_commit_callbacks)


def reply(**lists) -> FakeLLM:
    return FakeLLM.json(FakeLLM.empty_reply(**lists))


def add(text, key, category="other", entities=None, confidence=None, **extra) -> dict:
    return {
        "text": text,
        "key": key,
        "category": category,
        "entities": entities or [],
        "confidence": confidence,
        "valid_from": None,
        "event_time": None,
        **extra,
    }
