"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1.

The real `openai` client talks to it over HTTP, so its retries, timeouts and
JSON parsing run for real while the replies come from code: the extraction
benchmark answers with the offline rules (`rules_responder`), and the tests
script the replies they need (tests/fake_llm.py builds on this server).

    with ScriptedLLM(rules_responder) as llm:   # started; stopped on exit
        settings.OPENAI_BASE_URL = llm.url
        ...

`respond` gets the parsed JSON body of each request (plus `_path`, the
request path) and returns a `Reply`. It runs on the server's request threads,
so it must be thread-safe. It binds to the loopback address only.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from facts.extraction import rules


@dataclass
class Reply:
    status: int = 200
    content: str | None = None  # the assistant message text of a 200
    body: dict | None = None  # a raw JSON body (errors)
    delay: float = 0.0  # seconds to wait before answering (timeouts, kill tests)
    headers: dict = field(default_factory=dict)

    @classmethod
    def json(cls, obj: dict, *, delay: float = 0.0) -> Reply:
        """A 200 whose assistant message is `obj` as JSON."""
        return cls(content=json.dumps(obj), delay=delay)

    @classmethod
    def text(cls, content: str, *, delay: float = 0.0) -> Reply:
        return cls(content=content, delay=delay)

    @classmethod
    def error(cls, status: int, message: str = "scripted error", *, delay: float = 0.0) -> Reply:
        """An error response shaped like the OpenAI API's."""
        return cls(status=status, body={"error": {"message": message, "type": "scripted", "code": None}}, delay=delay)


Responder = Callable[[dict], Reply]


def completion_body(content: str, model: str = "fake-model") -> dict:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def rules_responder(request: dict) -> Reply:
    """A stand-in model: the offline rules applied to the user lines of the prompt's new messages."""
    prompt = request["messages"][-1]["content"] if request.get("messages") else ""
    lines = re.findall(r"^User: (.*)$", prompt.split("New messages:", 1)[-1], flags=re.MULTILINE)
    return Reply.json(rules.extract(lines))


class ScriptedLLM:
    """The server. `start()` binds a free port on 127.0.0.1; `url` is the base URL for the client."""

    def __init__(self, respond: Responder):
        self.respond = respond
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> ScriptedLLM:
        if self._server is None:
            self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_class(self))
            self._server.daemon_threads = True
            self._thread = threading.Thread(target=self._server.serve_forever, name="scripted-llm", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError("The scripted LLM is not running; call start() first.")
        host, port = self._server.server_address[:2]
        assert isinstance(host, str)  # an AF_INET server's address; bytes only for AF_UNIX
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> ScriptedLLM:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def _handler_class(llm: ScriptedLLM) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):  # noqa: N802 (http.server's naming)
            length = int(self.headers.get("Content-Length") or 0)
            try:
                request = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                request = {}
            request["_path"] = self.path
            reply = llm.respond(request)
            if reply.delay:
                time.sleep(reply.delay)
            if reply.status == 200 and reply.content is not None:
                body = completion_body(reply.content, request.get("model", "fake-model"))
            else:
                body = reply.body or {}
            self._send(reply, json.dumps(body).encode())

        def _send(self, reply: Reply, data: bytes) -> None:
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout): nothing to answer

        def log_message(self, *args):  # no access log on the console
            pass

    return Handler
