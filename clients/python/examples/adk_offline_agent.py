"""An ADK agent with the memory service as its memory, offline: a scripted model stands in for
Gemini. Session 1 tells the agent about an allergy; the session goes to memory; in session 2 ADK's
preload_memory tool recalls it and puts it in front of the model, whose answer shows it arrived.

    python clients/python/examples/adk_offline_agent.py --key mem_... --url http://127.0.0.1:8000
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import AsyncGenerator

from google.adk.agents import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.adk.tools.preload_memory_tool import preload_memory_tool
from google.genai import types
from memory_service_client import AsyncClient
from memory_service_client.adapters.adk import MemoryServiceMemory

APP = "dinner-helper"


class ScriptedModel(BaseLlm):
    """Answers from what is in front of it: no network, no model weights."""

    model: str = "scripted"

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse]:
        seen = " ".join(p.text for c in llm_request.contents for p in (c.parts or []) if p.text)
        remembered = "PAST_CONVERSATIONS" in seen and "peanut" in seen.lower()
        answer = "Anything without peanuts: you told me you are allergic." if remembered else "Noted."
        yield LlmResponse(content=types.Content(role="model", parts=[types.Part.from_text(text=answer)]))


async def ask(runner: Runner, user_id: str, session_id: str, text: str) -> str:
    message = types.Content(role="user", parts=[types.Part.from_text(text=text)])
    said = ""
    async for event in runner.run_async(user_id=user_id, session_id=session_id, new_message=message):
        if event.content and event.content.parts and event.author != "user":
            said = "".join(p.text or "" for p in event.content.parts) or said
    return said


async def main(key: str, url: str, user_id: str = "alice") -> str:
    async with AsyncClient(key, url) as client:
        memory = MemoryServiceMemory(client)
        sessions = InMemorySessionService()
        agent = LlmAgent(
            name="helper", model=ScriptedModel(), instruction="Help plan dinner.", tools=[preload_memory_tool]
        )
        runner = Runner(app_name=APP, agent=agent, session_service=sessions, memory_service=memory)

        first = await sessions.create_session(app_name=APP, user_id=user_id)
        await ask(runner, user_id, first.id, "I am allergic to peanuts.")
        await memory.add_session_to_memory(
            await sessions.get_session(app_name=APP, user_id=user_id, session_id=first.id)
        )

        question = "Which food should I avoid for dinner?"
        deadline = time.monotonic() + 60  # extraction runs in the service's background
        while not (await memory.search_memory(app_name=APP, user_id=user_id, query=question)).memories:
            if time.monotonic() > deadline:
                raise TimeoutError("the first session never reached memory")
            await asyncio.sleep(0.2)

        second = await sessions.create_session(app_name=APP, user_id=user_id)
        return await ask(runner, user_id, second.id, question)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--key", required=True)
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    args = parser.parse_args()
    print(asyncio.run(main(args.key, args.url)))
