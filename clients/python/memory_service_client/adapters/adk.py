"""A Google ADK `BaseMemoryService` over the memory service.

- `add_session_to_memory(session)` posts the session's turns: each user message with the agent's
  text replies up to the next user message is one turn, under a turn id made from the session and
  the user event's id, so adding a session again (ADK may, during its lifetime) stores no turn
  twice; a turn whose reply grew since its first post keeps its first version (the 409 is
  skipped). Extraction runs in the service's background, as for any turn.
- `search_memory(app_name, user_id, query)` recalls the user's facts and past messages
  (`sources` facts and episodes): facts come back with author "memory" (and, in
  `custom_metadata["quote"]`, the words of the turn they came from, when recall folded the two
  together, either way round), past messages with
  author "user"; a past message the injection floor flags (`injection_rule`) is left out.
- the service's user id is `user_id_for(app_name, user_id)`: by default `"{app_name}:{user_id}"`,
  so two ADK apps of one tenant keep apart.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from google.adk.events.event import Event
from google.adk.memory.base_memory_service import BaseMemoryService, SearchMemoryResponse
from google.adk.memory.memory_entry import MemoryEntry
from google.adk.sessions.session import Session
from google.genai import types

from memory_service_client.client import AsyncClient
from memory_service_client.errors import Conflict, NotFound


def default_user_id(app_name: str, user_id: str) -> str:
    return f"{app_name}:{user_id}"


def _text(event: Event) -> str:
    parts = event.content.parts if event.content and event.content.parts else []
    return "\n".join(part.text for part in parts if part.text and not part.thought).strip()


def session_turns(events: Sequence[Event]) -> list[tuple[Event, str, str]]:
    """(user event, what the user said, what the agent answered) for each user message."""
    turns: list[tuple[Event, str, list[str]]] = []
    for event in events:
        text = _text(event)
        if not text:
            continue
        if event.author == "user":
            turns.append((event, text, []))
        elif turns:
            turns[-1][2].append(text)
    return [(event, said, "\n".join(replies)) for event, said, replies in turns]


class MemoryServiceMemory(BaseMemoryService):
    """`MemoryServiceMemory(AsyncClient(key, url))`, given to an ADK Runner as its memory_service."""

    def __init__(
        self,
        client: AsyncClient,
        *,
        k: int = 10,
        user_id_for: Callable[[str, str], str] = default_user_id,
    ):
        self.client = client
        self.k = k
        self.user_id_for = user_id_for

    async def add_session_to_memory(self, session: Session) -> None:
        await self.add_events_to_memory(
            app_name=session.app_name, user_id=session.user_id, events=session.events, session_id=session.id
        )

    async def add_events_to_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        events: Sequence[Event],
        session_id: str | None = None,
        custom_metadata: Any = None,
    ) -> None:
        session = session_id or "adk"
        user = self.user_id_for(app_name, user_id)
        for event, said, answered in session_turns(events):
            turn_id = "adk-" + hashlib.sha256(f"{session}\x00{event.id}".encode()).hexdigest()[:32]
            try:
                await self.client.post_turn(
                    user, said, session_id=session[:128], assistant_response=answered, turn_id=turn_id
                )
            except Conflict:  # posted before with a shorter reply: the first version stays
                continue

    async def search_memory(self, *, app_name: str, user_id: str, query: str) -> SearchMemoryResponse:
        user = self.user_id_for(app_name, user_id)
        try:
            found = await self.client.recall(user, query, k=self.k, sources=("facts", "episodes"))
        except NotFound:  # nothing stored for this user yet
            return SearchMemoryResponse()
        memories = []
        for item in found.items:
            if item.fact is not None:
                quote = item.quote.text if item.quote and not item.quote.injection_rule else None
                memories.append(_fact_entry(item.fact, item.score, quote))
            elif item.episode is not None and item.folded_facts:
                # Facts recall ranked through (or folded into) their turn: each a memory, the first
                # with the turn's words as its quote, as a fact item with its folded turn is given.
                quote = None if item.episode.injection_rule else item.episode.text
                for i, fact in enumerate(item.folded_facts):
                    memories.append(_fact_entry(fact, item.score, quote if i == 0 else None))
            elif item.episode is not None and not item.episode.injection_rule:
                memories.append(
                    MemoryEntry(
                        id=f"turn:{item.episode.turn_id}",
                        author="user",
                        timestamp=item.episode.occurred_at.isoformat(),
                        content=types.Content(role="user", parts=[types.Part.from_text(text=item.episode.text)]),
                        custom_metadata={"kind": "episode", "score": item.score},
                    )
                )
        return SearchMemoryResponse(memories=memories)

    async def delete_memory(self, *, app_name: str, user_id: str, memory_id: str | None = None) -> None:
        """Forget one fact by the id search_memory gave it (past messages are not deleted here)."""
        if memory_id and not memory_id.startswith("turn:"):
            await self.client.forget_fact(memory_id)


def _fact_entry(fact: Any, score: float, quote: str | None) -> MemoryEntry:
    """A fact as a memory of author "memory"; `quote`: the words of the turn it came from, if any."""
    return MemoryEntry(
        id=str(fact.id),
        author="memory",
        timestamp=fact.valid_from.isoformat(),
        content=types.Content(role="user", parts=[types.Part.from_text(text=fact.text)]),
        custom_metadata={"kind": "fact", "score": score, "category": fact.category, "quote": quote},
    )
