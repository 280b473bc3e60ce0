"""Compact JSON of facts, episodes and history entries for tool results (the REST schemas, fewer fields)."""

from __future__ import annotations

from datetime import UTC
from typing import Any

from facts import selectors as fact_selectors
from facts.guard import shown_identifier
from facts.models import Fact, FactHistory
from facts.schemas import FactOut, HistoryOut
from recall.answer import fact_link, shown_source, turn_link
from recall.hits import EpisodeHit

# What a model needs to use a memory, and `source` to cite it (compact_source); the full
# provenance and the bookkeeping stay in the REST API.
FACT_FIELDS = {
    "id",
    "text",
    "category",
    "key",
    "confidence",
    "status",
    "valid_from",
    "valid_to",
    "updated_at",
    "superseded_by",
    "replaces",
    "entities",
}


def fact_json(fact: Fact) -> dict[str, Any]:
    data = FactOut.from_orm(fact).model_dump(mode="json", include=FACT_FIELDS, exclude_none=True)
    data["confidence"] = round(fact.confidence, 3)
    data["key"] = shown_identifier(fact.key)
    data["source"] = compact_source(fact_link(fact))
    return data


def compact_source(link: fact_selectors.TurnLink | None) -> dict[str, Any] | None:
    """Where a memory or message came from, for a model to cite: the turn's id, session and time
    and the extractor (its model too, when an LLM's); null when no turn stated it. Ids, no words."""
    source = shown_source(link)
    return None if source is None else {name: value for name, value in source.items() if value is not None}


def history_json(entry: FactHistory) -> dict[str, Any]:
    data = HistoryOut.from_orm(entry).model_dump(mode="json", exclude_none=True)
    for version in (data.get("before"), data.get("after")):
        if isinstance(version, dict) and isinstance(version.get("key"), str):
            version["key"] = shown_identifier(version["key"])
    data["source_turn_id"] = shown_identifier(data["source_turn_id"])
    return data


def episode_json(hit: EpisodeHit) -> dict[str, Any]:
    """A past message as a quote with its time (recall.hits.Quote: one line, so a message cannot forge
    structure, and its own double quotes turned single so the quote cannot be closed early)."""
    quote = hit.quote
    return {
        "quote": quote.line,
        "occurred_at": quote.occurred_at.astimezone(UTC).isoformat(),
        "session_id": shown_identifier(quote.session_id),
        "turn_id": shown_identifier(quote.turn_id),
        "memory_ids": list(quote.facts),
        "score": round(hit.score, 4),
        "source": compact_source(turn_link(hit.turn)),
    }
