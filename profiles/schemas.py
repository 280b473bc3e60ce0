from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from ninja import Field, Schema
from pydantic import StrictBool

from core.schemas import JsonInt, ObjectIn


class ProfileItemOut(Schema):
    id: str
    key: str
    text: str
    category: str
    confidence: float
    mention_count: int
    valid_from: datetime | None
    created_at: datetime | None
    updated_at: datetime | None
    last_mentioned_at: datetime | None


class RecentChangeOut(ProfileItemOut):
    change: str  # "new" or "updated" (replaced an earlier value)
    changed_at: datetime


class ProfileOut(Schema):
    user_id: str
    version: int
    facts_version: int
    current: bool  # False: facts changed since; the next trigger projects again
    trigger: str
    created_at: datetime
    updated_at: datetime
    identity: list[ProfileItemOut]
    hard_preferences: list[ProfileItemOut]
    soft_preferences: list[ProfileItemOut]
    current_tasks: list[ProfileItemOut]
    recent_changes: list[RecentChangeOut]
    sensitive_topics: list[ProfileItemOut]
    environment: list[ProfileItemOut]
    other: list[ProfileItemOut]


class SessionEndOut(Schema):
    user_id: str
    session_id: str
    status: str


class ContextIn(ObjectIn):
    query: str | None = Field(None, max_length=4_000)
    # The upper bound is enforced by profiles.services (rule max_tokens); stated here for clients.
    max_tokens: JsonInt = Field(..., ge=1, json_schema_extra={"maximum": settings.MEMORY_CONTEXT_MAX_TOKENS})
    cite: StrictBool = Field(
        False,
        description="Number the items: each item's line starts with `[n]`, and `citations` maps each n to its ids. "
        "Off, the block is unchanged and `citations` is null.",
    )


class ContextItemOut(Schema):
    id: str
    text: str
    category: str
    confidence: float
    last_mentioned_at: datetime
    source: str  # "profile" or "recall"
    score: float | None
    stale: bool
    low_confidence: bool
    # A recalled fact: the words of the turn it came from, quoted under it (recall folded that
    # turn into the fact); null when there is none, or it was withheld.
    quote: str | None = None


class ContextSectionOut(Schema):
    name: str
    title: str
    items: list[ContextItemOut]


class DroppedOut(Schema):
    id: str
    section: str
    reason: str  # "budget" (did not fit) or "sensitive" (health/finance not relevant to the query)
    stale: bool
    low_confidence: bool


class RecallInfoOut(Schema):
    mode: str
    degraded: bool
    hits: int


class CitationOut(Schema):
    n: int
    fact_id: str | None = Field(description="The fact on line [n]; null for a quoted past turn")
    turn_id: str | None = Field(description="The turn it was said in; null when no turn stated it")
    session_id: str | None = Field(description="That turn's session; null when there is no turn")
    occurred_at: datetime | None = Field(description="When that turn was said; null when there is no turn")


class ContextOut(Schema):
    text: str
    tokens: int
    max_tokens: int
    tokenizer: str
    sections: list[ContextSectionOut]
    dropped: list[DroppedOut]
    recall: RecallInfoOut | None
    citations: list[CitationOut] | None = None  # with `cite` only


# --- Metrics (GET /api/v1/metrics) ------------------------------------------------------


class Percentiles(Schema):
    p50: float | None
    p95: float | None
    count: int


class RecallMetricsOut(Schema):
    requests: int
    by_mode: dict[str, int]
    degraded: int
    degraded_rate: float | None
    lexical_requests: int
    lexical_hit_rate: float | None = Field(description="share of recalls that ran BM25 and found a fact")
    vector_requests: int
    vector_hit_rate: float | None = Field(description="share of non-degraded recalls that ran vectors and found one")
    empty_rate: float | None
    latency_ms: Percentiles


class OverwriteMetricsOut(Schema):
    automatic_supersessions: int
    held_for_staff: int
    proposed: int
    rejected_by_staff: int
    reverted_by_staff: int
    wrong: int
    wrong_overwrite_rate: float | None


class OpenAge(Schema):
    p50: float | None
    max: float | None


class PendingMetricsOut(Schema):
    created: int
    resolved: int
    approved: int
    rejected: int
    resolution_rate: float | None
    time_to_resolve_s: Percentiles
    open_now: int
    open_age_s: OpenAge


class LatencyBucket(Schema):
    start: datetime
    turns: int
    p50_ms: float | None
    p95_ms: float | None


class ExtractionLatency(Schema):
    end_to_end: Percentiles
    queue_wait: Percentiles
    processing: Percentiles
    llm: Percentiles


class ExtractionMetricsOut(Schema):
    turns: dict[str, int]
    backlog_now: int
    latency_ms: ExtractionLatency
    series: list[LatencyBucket]


class ContextMetricsOut(Schema):
    requests: int
    tokens_total: int
    tokens_mean: float | None
    tokens: Percentiles
    budget_use: float | None
    dropped_per_request: float | None
    withheld_sensitive: int
    latency_ms: Percentiles


class EvalOut(Schema):
    corpus: str
    questions: int
    created_at: datetime
    results: dict[str, Any]  # the eval_recall JSON "results" object as stored
    deltas_vs_lexical: dict[str, dict[str, float]]  # recall@k and hit@k of each mode minus lexical


class MetricsOut(Schema):
    tenant_id: str
    window: str
    since: datetime
    until: datetime
    recall: RecallMetricsOut
    overwrites: OverwriteMetricsOut
    pending: PendingMetricsOut
    extraction: ExtractionMetricsOut
    context: ContextMetricsOut
    eval_recall: EvalOut | None
