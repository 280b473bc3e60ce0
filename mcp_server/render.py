"""Compact JSON of facts, episodes and history entries for tool results (the REST schemas, fewer fields)."""

from __future__ import annotations

import re
from datetime import UTC

from facts.guard import shown_identifier
from facts.models import Fact, FactHistory
from facts.schemas import FactOut, HistoryOut
from recall.episodes import EpisodeHit

QUOTE_CHARS = 500  # as much of a message as the context block quotes
_SPACE = re.compile(r"\s+")

# What a model needs to use a memory; provenance and bookkeeping stay in the REST API.
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


def fact_json(fact: Fact) -> dict:
    data = FactOut.from_orm(fact).model_dump(mode="json", include=FACT_FIELDS, exclude_none=True)
    data["confidence"] = round(fact.confidence, 3)
    data["key"] = shown_identifier(fact.key)
    return data


def history_json(entry: FactHistory) -> dict:
    data = HistoryOut.from_orm(entry).model_dump(mode="json", exclude_none=True)
    for version in (data.get("before"), data.get("after")):
        if isinstance(version, dict) and isinstance(version.get("key"), str):
            version["key"] = shown_identifier(version["key"])
    data["source_turn_id"] = shown_identifier(data["source_turn_id"])
    return data


def episode_json(hit: EpisodeHit) -> dict:
    """A past message as a quote with its time: one line (a message cannot forge structure), its own
    double quotes turned single so the quote cannot be closed early."""
    said = _SPACE.sub(" ", hit.text).strip().replace('"', "'")
    if len(said) > QUOTE_CHARS:
        said = said[: QUOTE_CHARS - 1] + "\u2026"
    when = hit.turn.occurred_at.astimezone(UTC)
    return {
        "quote": f'On {when:%Y-%m-%d %H:%M} UTC the user said: "{said}"',
        "occurred_at": when.isoformat(),
        "session_id": shown_identifier(hit.turn.session_id),
        "turn_id": shown_identifier(hit.turn.turn_id),
        "memory_ids": [str(fact.uuid) for fact in hit.facts],
        "score": round(hit.score, 4),
    }
