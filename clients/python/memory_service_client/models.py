"""The API's payloads (the components of /api/v1/openapi.json; tests/clients checks the fields match).

Unknown fields a newer server adds are kept (`extra="allow"`), so an older client keeps working.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    model_config = ConfigDict(extra="allow")


class Fact(Model):
    """FactOut."""

    id: UUID
    user_id: str
    key: str
    text: str
    value_json: Any = None
    category: str
    confidence: float
    status: str
    valid_from: datetime
    valid_to: datetime | None
    event_time: datetime | None
    created_at: datetime
    updated_at: datetime
    last_mentioned_at: datetime
    mention_count: int
    source_turn_id: str | None
    source_excerpt: str
    superseded_by: UUID | None
    replaces: UUID | None
    entities: list[str]
    embedding_model: str


class FactPage(Model):
    items: list[Fact]
    next_cursor: str | None


class Deleted(Model):
    """DeletedOut."""

    deleted: int


class HistoryEntry(Model):
    """HistoryOut."""

    fact_id: UUID
    action: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    actor_kind: str
    actor_id: str
    source_turn_id: str
    reason: str
    created_at: datetime


class TurnAccepted(Model):
    turn_id: str
    status: str
    extractor: str
    # false when the turn was withheld (remember=false, the person asked, their memory mode); `reason` says why
    remembered: bool = True
    reason: str | None = None
    forgot_previous: dict[str, Any] | None = None


class Turn(Model):
    """TurnOut."""

    turn_id: str
    session_id: str
    status: str
    attempts: int
    last_error: str
    extractor: str
    occurred_at: datetime
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    queue_wait_ms: float | None
    processing_ms: float | None
    llm_ms: float | None
    outcome: dict[str, Any]


class SessionEnded(Model):
    """SessionEndOut."""

    user_id: str
    session_id: str
    status: str


class Episode(Model):
    """EpisodeOut: a past turn of the user, as data (never put one with `injection_rule` set into a prompt)."""

    turn_id: str
    session_id: str
    occurred_at: datetime
    text: str
    facts: list[str]
    injection_rule: str | None = None


class Provenance(Model):
    """HitProvenanceOut: the turn a hit came from and what extracted it; all null for a fact no turn stated."""

    turn_id: str | None
    session_id: str | None
    occurred_at: datetime | None
    extractor: str | None = None
    model: str | None = None


class RecallItem(Model):
    """RecallItemOut (recall with `sources`); `fact` or `episode` is set, by `kind`."""

    kind: Literal["fact", "episode"]
    fact: Fact | None = None
    episode: Episode | None = None
    score: float
    signals: dict[str, Any]
    quote: Episode | None = None
    folded_facts: list[Fact] = []
    provenance: Provenance | None = None


class RecallAnswer(Model):
    """RecallWithSourcesOut: the client always asks with `sources`, so items have one shape."""

    items: list[RecallItem]
    mode: str
    degraded: bool


class ContextItem(Model):
    """ContextItemOut."""

    id: str
    text: str
    category: str
    confidence: float
    last_mentioned_at: datetime | None
    source: str
    score: float | None
    stale: bool
    low_confidence: bool
    quote: dict[str, Any] | None = None


class ContextSection(Model):
    """ContextSectionOut."""

    name: str
    title: str
    items: list[ContextItem]


class Context(Model):
    """ContextOut: the block for the next prompt, never over `max_tokens`."""

    text: str
    tokens: int
    max_tokens: int
    tokenizer: str
    sections: list[ContextSection]
    dropped: list[dict[str, Any]]
    recall: dict[str, Any] | None


class Receipt(Model):
    """ReceiptOut: proof of an erasure, without personal data."""

    id: int
    scope: str
    user_hash: str
    counts: dict[str, int]
    actor_kind: str
    actor_id: str
    created_at: datetime


# Model -> the OpenAPI component it mirrors (tests/clients/test_models_match_openapi.py).
COMPONENTS: dict[type[Model], str] = {
    Fact: "FactOut",
    FactPage: "FactPage",
    Deleted: "DeletedOut",
    HistoryEntry: "HistoryOut",
    TurnAccepted: "TurnAccepted",
    Turn: "TurnOut",
    SessionEnded: "SessionEndOut",
    Episode: "EpisodeOut",
    Provenance: "HitProvenanceOut",
    RecallItem: "RecallItemOut",
    RecallAnswer: "RecallWithSourcesOut",
    ContextItem: "ContextItemOut",
    ContextSection: "ContextSectionOut",
    Context: "ContextOut",
    Receipt: "ReceiptOut",
}
