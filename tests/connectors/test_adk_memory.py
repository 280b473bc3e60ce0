"""The Google ADK memory service adapter (memory_service_client.adapters.adk) against a live server:
add_session_to_memory posts the session's turns (once, however often the session is added),
search_memory(app_name, user_id, query) recalls, and the example agent runs offline with a
scripted model (clients/python/examples/adk_offline_agent.py)."""

from __future__ import annotations

import importlib.util

import pytest
from google.adk.events.event import Event
from google.adk.sessions.session import Session
from google.genai import types
from memory_service_client import AsyncClient, Client
from memory_service_client.adapters.adk import MemoryServiceMemory

from tests.connectors.aio import run_async
from tests.integration.stack import ROOT

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def _event(author: str, text: str, event_id: str) -> Event:
    return Event(
        id=event_id, author=author, invocation_id="i", content=types.Content(role="user", parts=[types.Part(text=text)])
    )


def _session(*events: Event) -> Session:
    return Session(id="s-1", app_name="shop", user_id="ana", events=list(events))


def test_a_session_becomes_turns_once_and_search_recalls_it(live):
    session = _session(
        _event("user", "I am allergic to peanuts.", "e1"),
        _event("helper", "Noted, no peanuts.", "e2"),
        _event("user", "I work at Acme.", "e3"),
    )

    async def main():
        async with AsyncClient(live.alice, live.base) as client:
            memory = MemoryServiceMemory(client)
            await memory.add_session_to_memory(session)
            session.events.append(_event("helper", "Acme, got it.", "e4"))  # the session grew
            await memory.add_session_to_memory(session)  # added again: nothing doubled
            return await memory.search_memory(app_name="shop", user_id="ana", query="is she allergic to anything?")

    found = run_async(main)
    with Client(live.alice, live.base) as client:
        turns = client.export_user("shop:ana")["turns"]
        assert len(turns) == 2 and {t["session_id"] for t in turns} == {"s-1"}
        assert sorted(f.text for f in client.iter_facts("shop:ana")) == [
            "User is allergic to peanuts.",
            "User works at Acme.",
        ]
    texts = [(m.author, m.content.parts[0].text) for m in found.memories]
    assert texts[0] == ("memory", "User is allergic to peanuts.")
    assert found.memories[0].custom_metadata["quote"] == "I am allergic to peanuts."  # the words it came from


def test_an_unknown_user_has_no_memories(live):
    async def main():
        async with AsyncClient(live.alice, live.base) as client:
            return await MemoryServiceMemory(client).search_memory(app_name="shop", user_id="nobody", query="x")

    assert run_async(main).memories == []


def test_the_example_agent_remembers_across_sessions_offline(live):
    spec = importlib.util.spec_from_file_location(
        "adk_offline_agent", ROOT / "clients/python/examples/adk_offline_agent.py"
    )
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    answer = run_async(lambda: example.main(live.alice, live.base, user_id="adk-example"))
    assert answer == "Anything without peanuts: you told me you are allergic."
