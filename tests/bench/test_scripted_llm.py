"""The scripted OpenAI-compatible server in production code (bench.scripted_llm)."""

from __future__ import annotations

import ast
from pathlib import Path

import openai
import pytest

from bench.scripted_llm import Reply, ScriptedLLM, rules_responder

ROOT = Path(__file__).resolve().parents[3]


def _client(llm: ScriptedLLM) -> openai.OpenAI:
    return openai.OpenAI(api_key="k", base_url=llm.url, max_retries=0, timeout=5)


def test_the_callback_gets_each_request_body_and_its_reply_reaches_the_real_client():
    seen = []

    def respond(request: dict) -> Reply:
        seen.append(request)
        return Reply.text(f"echo: {request['messages'][-1]['content']}")

    with ScriptedLLM(respond) as llm:
        assert llm.url.startswith("http://127.0.0.1:")
        answer = _client(llm).chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
    assert answer.choices[0].message.content == "echo: hi"
    assert seen[0]["model"] == "m" and seen[0]["_path"] == "/v1/chat/completions"


def test_an_error_reply_reaches_the_client_as_that_status():
    with ScriptedLLM(lambda request: Reply.error(429, "slow down")) as llm, pytest.raises(openai.RateLimitError):
        _client(llm).chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])


def test_a_stopped_server_has_no_url_and_can_start_again():
    llm = ScriptedLLM(rules_responder)
    with pytest.raises(RuntimeError):
        llm.url  # noqa: B018
    llm.start()
    llm.stop()
    with llm:
        reply = _client(llm).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "New messages:\nUser: I live in Oslo."}]
        )
    assert "Oslo" in reply.choices[0].message.content


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_no_production_module_imports_the_tests():
    offenders = [
        str(path.relative_to(ROOT))
        for app in ("memory_service", "facts", "recall", "profiles")
        for path in (ROOT / app).rglob("*.py")
        if any(name == "tests" or name.startswith("tests.") for name in _imported_modules(path))
    ]
    assert offenders == []
