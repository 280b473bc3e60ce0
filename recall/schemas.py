from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from ninja import Field, Schema

from core.schemas import JSON_NUMBER, IsoDateTime, JsonInt, ObjectIn
from facts.schemas import FactOut


class RecallIn(ObjectIn):
    query: str = Field("", max_length=20_000)
    k: JsonInt = Field(20, ge=1, le=200)
    mode: Literal["hybrid", "lexical", "vector"] = "hybrid"
    budget_chars: Annotated[int, Field(ge=1, le=1_000_000), JSON_NUMBER] | None = None
    as_of: IsoDateTime | None = None
    # Omitted: facts only, and the v1 response shape (no `kind`).
    sources: list[Literal["facts", "episodes"]] | None = Field(None, min_length=1, max_length=2)


class EpisodeOut(Schema):
    turn_id: str
    session_id: str
    occurred_at: datetime
    text: str
    facts: list[str]  # ids of the live facts this turn produced
    injection_rule: str | None = Field(
        None,
        description="The injection floor's rule these raw words break (null when none): the text is returned "
        "as data; never put such an episode into a prompt (the context block, MCP and mem0 search leave it out).",
    )


class HitProvenanceOut(Schema):
    """Where a hit came from (recall.answer.provenance_out): null fields where unknown, e.g. a fact
    stored through the API has no turn, or one whose turn was withdrawn."""

    turn_id: str | None
    session_id: str | None
    occurred_at: datetime | None
    extractor: str | None = Field(None, description="`llm` or `rules`: what read the turn")
    model: str | None = Field(None, description="The LLM extractor's model, else null")


class RecallHitOut(Schema):
    fact: FactOut
    score: float
    signals: dict[str, Any]
    provenance: HitProvenanceOut | None = Field(
        None, description="Where the fact came from: its source turn's ids and time and the extractor (docs/api.md)"
    )


class RecallItemOut(Schema):
    kind: Literal["fact", "episode"]
    fact: FactOut | None = None
    episode: EpisodeOut | None = None
    score: float
    signals: dict[str, Any]
    quote: EpisodeOut | None = Field(
        None,
        description="A fact item: the words of the turn it came from, when that turn's episode was folded "
        "into it (it takes no slot of its own). Null otherwise, and on episode items.",
    )
    folded_facts: list[FactOut] = Field(
        default_factory=list,
        description="An episode item: the facts of its turn that ranked below it and were folded into it. "
        "Empty otherwise.",
    )
    provenance: HitProvenanceOut | None = Field(
        None, description="Where the hit came from: its source turn's ids and time and the extractor (docs/api.md)"
    )


class RecallOut(Schema):
    items: list[RecallHitOut]
    mode: str
    degraded: bool


class RecallWithSourcesOut(Schema):
    items: list[RecallItemOut]
    mode: str
    degraded: bool
