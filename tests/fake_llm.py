"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1, for tests.

The real `openai` client talks to it over HTTP, so retries, timeouts and JSON
parsing are exercised for real. Each test scripts the replies it wants, in
order; when the script runs out, `responder` (if set) answers, else a 500
says the call was not expected.

    from tests.fake_llm import FakeLLM, fake_llm   # the fixture, for a conftest

    def test_x(fake_llm):
        fake_llm.script(FakeLLM.error(429), FakeLLM.json({"add": [], ...}))
        ...
        assert len(fake_llm.requests) == 2

Usable outside pytest too (`with FakeLLM() as llm: ...`), e.g. by a benchmark.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


@dataclass
class Reply:
    status: int = 200
    content: str | None = None  # the assistant message text of a 200
    body: dict | None = None  # a raw JSON body (errors)
    delay: float = 0.0  # seconds to wait before answering (timeouts, kill tests)
    headers: dict = field(default_factory=dict)


def completion_body(content: str, model: str = "fake-model") -> dict:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


class FakeLLM:
    """The server plus its script. `url` is the base URL to give the client."""

    def __init__(self, responder: Callable[[dict], Reply] | None = None):
        self.responder = responder
        self.requests: list[dict] = []
        self._script: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-llm", daemon=True)
        self._thread.start()

    # --- scripting ---------------------------------------------------------------------

    @staticmethod
    def json(obj: dict, *, delay: float = 0.0) -> Reply:
        return Reply(content=json.dumps(obj), delay=delay)

    @staticmethod
    def text(content: str, *, delay: float = 0.0) -> Reply:
        return Reply(content=content, delay=delay)

    @staticmethod
    def error(status: int, message: str = "scripted error", *, delay: float = 0.0) -> Reply:
        return Reply(status=status, body={"error": {"message": message, "type": "scripted", "code": None}}, delay=delay)

    @staticmethod
    def empty_reply(**lists) -> dict:
        """A valid extraction reply with the given lists filled in."""
        return {"add": [], "supersede": [], "expire": [], "edges": [], **lists}

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._script.extend(replies)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        assert isinstance(host, str)  # an AF_INET server's address; bytes only for AF_UNIX
        return f"http://{host}:{port}/v1"

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
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FakeLLM:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- serving -------------------------------------------------------------------------

    def _next_reply(self, request: dict) -> Reply:
        with self._arrived:
            self.requests.append(request)
            self._arrived.notify_all()
            if self._script:
                return self._script.popleft()
        if self.responder is not None:
            return self.responder(request)
        return self.error(500, "fake LLM: no scripted reply left for this call")

    def _handler_class(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    request = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    request = {}
                request["_path"] = self.path
                reply = fake._next_reply(request)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.status == 200 and reply.content is not None:
                    body = completion_body(reply.content, request.get("model", "fake-model"))
                else:
                    body = reply.body or {}
                data = json.dumps(body).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test): nothing to answer

            def log_message(self, *args):  # keep test output quiet
                pass

        return Handler


def rules_responder(request: dict) -> Reply:
    """A stand-in model for end-to-end runs: the offline rules applied to the prompt's user lines."""
    from facts.extraction import rules

    prompt = request["messages"][-1]["content"] if request.get("messages") else ""
    lines = re.findall(r"^User: (.*)$", prompt.split("New messages:", 1)[-1], flags=re.MULTILINE)
    return FakeLLM.json(rules.extract(lines))


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
