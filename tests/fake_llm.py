"""The scripted LLM server (bench.scripted_llm) with a per-test script, for tests.

Each test scripts the replies it wants, in order; when the script runs out,
`responder` (if set) answers, else a 500 says the call was not expected.
Every request body is kept in `requests` for assertions.

    from tests.fake_llm import FakeLLM, fake_llm   # the fixture, for a conftest

    def test_x(fake_llm):
        fake_llm.script(FakeLLM.error(429), FakeLLM.json({"add": [], ...}))
        ...
        assert len(fake_llm.requests) == 2

Usable outside pytest too (`with FakeLLM() as llm: ...`).
"""

from __future__ import annotations

import threading
from collections import deque

import pytest

from bench.scripted_llm import Reply, Responder, ScriptedLLM


class FakeLLM(ScriptedLLM):
    """A started server plus its script. `url` is the base URL to give the client."""

    json = staticmethod(Reply.json)
    text = staticmethod(Reply.text)
    error = staticmethod(Reply.error)

    def __init__(self, responder: Responder | None = None):
        super().__init__(self._next_reply)
        self.responder = responder
        self.requests: list[dict] = []
        self._script: deque[Reply] = deque()
        self._arrived = threading.Condition()
        self.start()

    @staticmethod
    def empty_reply(**lists) -> dict:
        """A valid extraction reply with the given lists filled in."""
        return {"add": [], "supersede": [], "expire": [], "edges": [], **lists}

    def script(self, *replies: Reply) -> None:
        with self._arrived:
            self._script.extend(replies)

    def wait_for_requests(self, n: int, timeout: float = 10.0) -> bool:
        with self._arrived:
            return self._arrived.wait_for(lambda: len(self.requests) >= n, timeout=timeout)

    def user_prompts(self) -> list[str]:
        """The last user message of each request, for assertions on what the model saw."""
        return [
            next((m["content"] for m in reversed(r.get("messages", [])) if m["role"] == "user"), "")
            for r in self.requests
        ]

    def close(self) -> None:
        self.stop()

    def _next_reply(self, request: dict) -> Reply:
        with self._arrived:
            self.requests.append(request)
            self._arrived.notify_all()
            if self._script:
                return self._script.popleft()
        if self.responder is not None:
            return self.responder(request)
        return Reply.error(500, "fake LLM: no scripted reply left for this call")


@pytest.fixture
def fake_llm(settings):
    """A running FakeLLM with the Django settings pointed at it (LLM extractor active)."""
    server = FakeLLM()
    settings.OPENAI_API_KEY = "test-key"
    settings.OPENAI_BASE_URL = server.url
    settings.MEMORY_LLM_BACKOFF_SECONDS = 0.01
    settings.MEMORY_LLM_TIMEOUT_SECONDS = 5.0
    yield server
    server.close()
