"""Request bodies that mem0ai's MemoryClient (2.2.1) sends; options we do not use are ignored."""

from __future__ import annotations

from typing import Any, Literal

from ninja import Field, Schema
from pydantic import StrictBool


class MessageIn(Schema):
    role: Literal["user", "assistant", "system"]
    content: str = Field(..., max_length=20_000)


class AddIn(Schema):
    messages: list[MessageIn] = Field(..., min_length=1, max_length=50)
    filters: dict[str, Any] | None = None
    # Older clients send the entity ids at the top level.
    user_id: str | None = None
    run_id: str | None = None
    agent_id: str | None = None
    app_id: str | None = None
    infer: bool = True
    metadata: dict[str, Any] | None = None
    # Ours (docs/mem0.md): false withholds the turn, nothing extracted and its words not kept.
    remember: StrictBool = True


class ListIn(Schema):
    filters: dict[str, Any] | None = None
    show_expired: bool = False


class SearchIn(Schema):
    query: str = Field(..., min_length=1, max_length=4_000)
    filters: dict[str, Any] | None = None
    top_k: int = Field(10, ge=1, le=200)
    keyword_search: bool = False
    threshold: float | None = None
    rerank: bool | None = None
    # Ours, opt-in (the client sends any extra keyword of search() in the body): with "episodes",
    # the answer gains an `episodes` list beside `results`. Omitted: facts only, mem0's shape.
    sources: list[Literal["facts", "episodes"]] | None = Field(None, min_length=1, max_length=2)


class UpdateIn(Schema):
    text: str | None = Field(None, max_length=20_000)
    metadata: dict[str, Any] | None = None
    timestamp: int | float | str | None = None
    expiration_date: str | None = None


# --- Answers (the fields mem0's clients read, then ours) ---------------------------------


class MemoryOut(Schema):
    id: str
    memory: str
    user_id: str
    hash: str
    metadata: dict[str, Any] | None
    categories: list[str]
    created_at: str | None
    updated_at: str | None
    expiration_date: str | None
    immutable: bool
    key: str
    status: str
    confidence: float
    valid_from: str | None
    valid_to: str | None
    superseded_by: str | None
    replaces: str | None


class ScoredMemoryOut(MemoryOut):
    score: float


class MemoryPageOut(Schema):
    count: int
    next: str | None
    previous: str | None
    results: list[MemoryOut]


class SearchOut(Schema):
    results: list[ScoredMemoryOut]


class EpisodeOut(Schema):
    """A past message of the user that matched the search (what was said, not a memory)."""

    turn_id: str = Field(..., description="The turn's id: the event_id of the add that sent it")
    session_id: str = Field(..., description="The conversation: the run_id of that add (default mem0)")
    occurred_at: str
    text: str
    memory_ids: list[str] = Field(..., description="The live memories extracted from it")
    score: float


class SearchWithEpisodesOut(SearchOut):
    episodes: list[EpisodeOut]
    episodes_withheld: int = Field(0, description="Matching messages left out by the injection floor")


class AddResultOut(Schema):
    """One entry of an add's answer: a queued event (inference) or a stored memory (infer=False)."""

    message: str | None = None
    status: str
    event_id: str | None = None
    id: str | None = None
    memory: str | None = None
    event: str | None = None
    # Ours: false when the turn was withheld (remember=false, the person asked, their memory mode).
    remembered: bool | None = None
    reason: str | None = None


class AddOut(Schema):
    results: list[AddResultOut]


class EventOut(Schema):
    id: str
    event_type: str
    status: str = Field(..., description="PENDING, RUNNING, SUCCEEDED or FAILED")
    state: str = Field(..., description="Our turn state: queued, extracting, done, skipped, failed or withheld")
    results: list[MemoryOut]
    created_at: str
    updated_at: str | None


class HistoryEntryOut(Schema):
    id: str
    memory_id: str
    event: str
    action: str
    old_memory: str | None
    new_memory: str | None
    user_id: str
    input: str | None
    metadata: dict[str, Any] | None
    reason: str
    actor: str
    created_at: str | None
    updated_at: str | None


class PingOut(Schema):
    status: str
    org_id: str | None
    project_id: str | None
    user_email: str | None
    tenant: str
    scopes: list[str]


class MessageOut(Schema):
    message: str
    deleted: int | None = None
    receipt_id: int | None = None
    counts: dict[str, int] | None = None
