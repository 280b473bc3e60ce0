from __future__ import annotations

from datetime import datetime
from typing import Literal

from ninja import Field, Schema

from facts.schemas import FactOut


class RecallIn(Schema):
    query: str = Field("", max_length=20_000)
    k: int = Field(20, ge=1, le=200)
    mode: Literal["hybrid", "lexical", "vector"] = "hybrid"
    budget_chars: int | None = Field(None, ge=1, le=1_000_000)
    as_of: datetime | None = None


class RecallHitOut(Schema):
    fact: FactOut
    score: float
    signals: dict


class RecallOut(Schema):
    items: list[RecallHitOut]
    mode: str
    degraded: bool
