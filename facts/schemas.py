from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

from django.conf import settings
from ninja import Field, Schema
from pydantic.config import JsonDict

from core.schemas import JSON_NUMBER, IsoDateTime, ObjectIn
from facts.guard import MAX_ENTITY_CHARS, UNTRUSTED_TEXT_CHARS_REFUSED
from facts.models import Category, Fact, Status
from facts.selectors import OutputLinks

Confidence = Annotated[float, Field(ge=0.0, le=1.0), JSON_NUMBER]

# What the injection floor (facts.guard.check_fact_text) lets through, stated
# for the schema: one line, no control or invisible characters, something
# besides spaces, at most MEMORY_MAX_FACT_CHARS. The guard stays the one place
# that enforces it (422 with a named rule); the words it refuses (instructions
# to the assistant, role markers, links awaiting data) no schema can state.
_REFUSED = "\\u0000-\\u001f" + UNTRUSTED_TEXT_CHARS_REFUSED
FACT_TEXT = {
    "pattern": f"^[^{_REFUSED}]*[^\\s{_REFUSED}][^{_REFUSED}]*$",
    "maxLength": settings.MEMORY_MAX_FACT_CHARS,
    "description": "One line; refused with a 422 and its rule when the injection floor (docs/api.md) says so",
}

# Entity names pass the same floor (facts.guard.check_entity_name): one line, no control or
# invisible characters, at most MAX_ENTITY_CHARS once stripped. Stated here, enforced there.
EntityName = Annotated[
    str,
    Field(
        json_schema_extra={
            "pattern": f"^[^{_REFUSED}]*$",
            "maxLength": MAX_ENTITY_CHARS,
            "description": "One line; refused with a 422 and its rule when the injection floor says so",
        }
    ),
]

# A key passes the floor too (facts.guard.check_identifier): stated here, enforced there.
KEY_SCHEMA: JsonDict = {
    "pattern": f"^[^{_REFUSED}]*$",
    "description": "A slot name; refused with a 422, its rule and field when the injection floor says so",
}


class FactIn(ObjectIn):
    text: str = Field(..., min_length=1, max_length=20_000, json_schema_extra=FACT_TEXT)
    category: Category | None = None
    key: str | None = Field(None, max_length=64, json_schema_extra=KEY_SCHEMA)
    confidence: Confidence | None = None
    valid_from: IsoDateTime | None = None
    event_time: IsoDateTime | None = None
    value_json: Any = Field(
        None,
        description="Any JSON value, at most MEMORY_VALUE_JSON_MAX_BYTES as JSON text (non-ASCII escaped), "
        "else a 422 with rule value_json_too_large; its characters count against the user's budget",
    )
    entities: list[EntityName] | None = Field(None, max_length=4)


class FactPatchIn(ObjectIn):
    text: str = Field(..., min_length=1, max_length=20_000, json_schema_extra=FACT_TEXT)
    category: Category | None = None
    key: str | None = Field(None, max_length=64, json_schema_extra=KEY_SCHEMA)
    confidence: Confidence | None = None
    entities: list[EntityName] | None = Field(None, max_length=4)


class FactOut(Schema):
    id: UUID = Field(..., alias="uuid")
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

    # A fact may carry its links read in bulk (facts.selectors.attach_output_links).
    @staticmethod
    def resolve_user_id(obj: Fact) -> str:
        return obj.user.external_id

    @staticmethod
    def resolve_source_turn_id(obj: Fact) -> str | None:
        if links := _links(obj):
            return links.source_turn_id
        return obj.source_turn.turn_id if obj.source_turn_id and obj.source_turn else None

    @staticmethod
    def resolve_superseded_by(obj: Fact) -> UUID | None:
        if links := _links(obj):
            return links.superseded_by
        return obj.superseded_by.uuid if obj.superseded_by_id and obj.superseded_by else None

    @staticmethod
    def resolve_replaces(obj: Fact) -> UUID | None:
        if links := _links(obj):
            return links.replaces
        return obj.replaces.uuid if obj.replaces_id and obj.replaces else None

    @staticmethod
    def resolve_entities(obj: Fact) -> list[str]:
        if links := _links(obj):
            return links.entities
        return [tag.entity.name for tag in obj.entity_tags.all()]


def _links(fact: Fact) -> OutputLinks | None:
    links: OutputLinks | None = getattr(fact, "output_links", None)
    return links


# The form of a cursor (facts.selectors._encode_cursor); every value of it is a valid position.
CURSOR_PATTERN = "^[0-9]{1,20}_[0-9]{1,20}$"


class FactPage(Schema):
    items: list[FactOut]
    next_cursor: str | None = Field(..., pattern=CURSOR_PATTERN)


class FactListFilters(Schema):
    category: Category | None = None
    status: Status | None = None
    include_retired: bool = False
    limit: int = Field(50, ge=1, le=200)
    cursor: str | None = Field(
        None,
        max_length=41,
        pattern=CURSOR_PATTERN,
        description="The `next_cursor` of the previous page, unchanged: `<microseconds since 1970>_<row id>` "
        "of the last fact it showed. Any value of that form is accepted (the page starts after that "
        "position); any other value is a 422.",
    )


class DeletedOut(Schema):
    deleted: int


class HistoryOut(Schema):
    fact_id: UUID = Field(..., alias="fact_uuid")
    action: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    actor_kind: str
    actor_id: str
    source_turn_id: str
    reason: str
    created_at: datetime


# --- Provenance (GET /facts/{id}/provenance): never a forgotten fact's words (facts.provenance) ---


class SourceQuoteOut(Schema):
    text: str
    injection_rule: str | None = Field(
        None, description="The injection floor's rule these raw words break (null when none), as in recall."
    )


class SourceTurnOut(Schema):
    turn_id: str
    session_id: str
    occurred_at: datetime
    quote: SourceQuoteOut | None = Field(
        None, description="The turn's words while recall may quote them; null once a forget withdrew its episode."
    )


class ExtractionOut(Schema):
    actor_kind: str | None
    actor_id: str | None
    extractor: str | None = Field(None, description="`llm` or `rules` for an extracted fact, else null")
    model: str | None
    at: datetime


class DecisionOut(Schema):
    fact_id: UUID
    action: str
    actor_kind: str
    actor_id: str
    source_turn_id: str | None
    reason: str
    created_at: datetime


class ProvenanceOut(Schema):
    fact_id: UUID
    user_id: str
    status: str
    source: SourceTurnOut | None
    extraction: ExtractionOut
    decisions: list[DecisionOut]
