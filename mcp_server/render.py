"""Compact JSON of facts and history entries for tool results (the REST schemas, fewer fields)."""

from __future__ import annotations

from facts.models import Fact, FactHistory
from facts.schemas import FactOut, HistoryOut

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
    return data


def history_json(entry: FactHistory) -> dict:
    return HistoryOut.from_orm(entry).model_dump(mode="json", exclude_none=True)
