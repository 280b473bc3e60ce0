from __future__ import annotations

from typing import Annotated, Literal

from ninja import Field, Schema

from facts.schemas import FactOut
from memory_service.schemas import JSON_NUMBER, IsoDateTime, JsonInt, ObjectIn


class RecallIn(ObjectIn):
    query: str = Field("", max_length=20_000)
    k: JsonInt = Field(20, ge=1, le=200)
    mode: Literal["hybrid", "lexical", "vector"] = "hybrid"
    budget_chars: Annotated[int, Field(ge=1, le=1_000_000), JSON_NUMBER] | None = None
    as_of: IsoDateTime | None = None


class RecallHitOut(Schema):
    fact: FactOut
    score: float
    signals: dict


class RecallOut(Schema):
    items: list[RecallHitOut]
    mode: str
    degraded: bool
