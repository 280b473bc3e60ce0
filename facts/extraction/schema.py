"""The extraction reply (docs/api.md) as pydantic models, and its parser.

Pure Python, no Django models: the LLM-queue worker validates replies with it
on machines that never open the database. The four lists are required (the
contract says all four are present); inside them we are lenient where a
harmless default exists (unknown category -> other, bad time -> none), strict
where applying a guess could do harm (missing text or id).
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

CATEGORIES = frozenset(
    {
        "identity",
        "hard_preference",
        "soft_preference",
        "task_context",
        "health",
        "finance",
        "project",
        "environment",
        "other",
    }
)
MAX_ENTITIES = 4
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL | re.IGNORECASE)


class InvalidReply(ValueError):
    """The model's reply is not the JSON object we asked for; the message says why (fed back on re-ask)."""


# The "before" validators below see the model's reply as parsed JSON, any value at all: Any.
class _Item(BaseModel):
    model_config = ConfigDict(extra="ignore")

    @staticmethod
    def _time(value: Any) -> str | None:
        # A time the model could not resolve is dropped, not fatal: the fact still holds.
        if value in (None, ""):
            return None
        try:
            return datetime.fromisoformat(str(value).replace("Z", "+00:00")).isoformat()
        except ValueError:
            return None


class FactItem(_Item):
    text: str = Field(min_length=1, max_length=2000)
    key: str = ""
    category: str | None = None  # None: the applier keeps the replaced fact's category, or "other"
    entities: list[str] = Field(default_factory=list)
    confidence: float | None = None

    @field_validator("key", mode="before")
    @classmethod
    def _key(cls, value: Any) -> str:
        return "" if value is None else str(value)

    @field_validator("category", mode="before")
    @classmethod
    def _category(cls, value: Any) -> str | None:
        value = str(value or "").strip().lower()
        if not value:
            return None
        return value if value in CATEGORIES else "other"

    @field_validator("entities", mode="before")
    @classmethod
    def _entities(cls, value: Any) -> list[str]:
        if value is None:
            return []
        if isinstance(value, str):
            value = [value]
        names = [str(v).strip()[:100] for v in value if str(v).strip()]
        return list(dict.fromkeys(names))[:MAX_ENTITIES]

    @field_validator("confidence", mode="before")
    @classmethod
    def _confidence(cls, value: Any) -> float | None:
        if value is None or value == "":
            return None
        try:
            return min(max(float(value), 0.0), 1.0)
        except (TypeError, ValueError):
            return None


class AddItem(FactItem):
    valid_from: str | None = None
    event_time: str | None = None

    @field_validator("valid_from", "event_time", mode="before")
    @classmethod
    def _times(cls, value: Any) -> str | None:
        return cls._time(value)


class SupersedeItem(FactItem):
    id: str = Field(min_length=1, max_length=64)

    @field_validator("id", mode="before")
    @classmethod
    def _id(cls, value: Any) -> str | None:
        return str(value).strip() if value is not None else value


class ExpireItem(_Item):
    id: str = Field(min_length=1, max_length=64)
    valid_to: str | None = None
    reason: str = ""

    @field_validator("id", mode="before")
    @classmethod
    def _id(cls, value: Any) -> str | None:
        return str(value).strip() if value is not None else value

    @field_validator("valid_to", mode="before")
    @classmethod
    def _valid_to(cls, value: Any) -> str | None:
        return cls._time(value)

    @field_validator("reason", mode="before")
    @classmethod
    def _reason(cls, value: Any) -> str:
        return str(value or "")[:500]


class EdgeItem(_Item):
    src: str = Field(min_length=1, max_length=100)
    relation: str = Field(min_length=1, max_length=100)
    dst: str = Field(min_length=1, max_length=100)


class ExtractionReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    add: list[AddItem]
    supersede: list[SupersedeItem]
    expire: list[ExpireItem]
    edges: list[EdgeItem]

    @property
    def is_empty(self) -> bool:
        return not (self.add or self.supersede or self.expire or self.edges)


def parse_reply(raw: str | None) -> ExtractionReply:
    """The validated reply, or InvalidReply with a short reason a model can act on."""
    if not raw or not raw.strip():
        raise InvalidReply("The reply was empty; answer with the JSON object only.")
    text = raw.strip()
    if fenced := _FENCE.match(text):
        text = fenced.group(1)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidReply(f"The reply is not valid JSON ({exc.msg} at position {exc.pos}).") from None
    if not isinstance(data, dict):
        raise InvalidReply("The reply must be one JSON object with the keys add, supersede, expire, edges.")
    try:
        return ExtractionReply.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors()[:5])
        raise InvalidReply(f"The reply does not match the schema: {problems}.") from None
