"""Per-tenant metrics over a time window (docs/design.md §9).

Definitions (also in the README, "Metrics"):
- lexical / vector hit rate: share of live recall requests (RecallLog, one per
  recall) in which that retriever found at least one fact. Lexical counts
  requests that ran BM25 (modes hybrid and lexical); vector counts requests
  that ran the embedder (hybrid and vector) and were not degraded.
- wrong-overwrite rate: of the overwrites proposed in the window (automatic
  supersessions by the extractor or an API key, plus changes held for staff as
  pending), the share that staff later rejected (pending) or reverted (staff
  superseded, expired or forgot the replacing fact).
- pending resolution: pending changes created in the window that have been
  approved or rejected since, with the time that took; plus what is open now.
- extraction latency: end to end from the turn's arrival to its result being
  applied (finished_at - created_at), and its queue-wait, processing and LLM
  parts, for turns finished in the window.
- context token cost: tokens of the context blocks served in the window.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any, cast
from uuid import UUID

from django.db.models import Count
from django.utils import timezone

from core.stats import percentile
from facts import logbuffer
from facts.models import ActorKind, Fact, FactHistory, HistoryAction, MemoryUser, Tenant, Turn, TurnState
from profiles.models import ContextLog
from recall.models import PendingIndex

WINDOWS = {"1h": timedelta(hours=1), "24h": timedelta(hours=24), "7d": timedelta(days=7), "30d": timedelta(days=30)}
# Chart buckets per window: about 12-30 points each.
BUCKETS = {"1h": timedelta(minutes=5), "24h": timedelta(hours=1), "7d": timedelta(hours=12), "30d": timedelta(days=1)}
_REVERTING = (HistoryAction.SUPERSEDE, HistoryAction.EXPIRE, HistoryAction.DELETE)


def _p(values: list[float], digits: int = 1) -> dict[str, Any]:
    def r(x: float | None) -> float | None:
        return None if x is None else round(x, digits)

    return {"p50": r(percentile(values, 0.5)), "p95": r(percentile(values, 0.95)), "count": len(values)}


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def recall_metrics(tenant: Tenant, since: datetime, until: datetime) -> dict[str, Any]:
    from recall.models import RecallLog  # recall owns the log; imported when needed

    logbuffer.flush()  # this process's buffered rows count too
    logs = RecallLog.objects.filter(tenant=tenant, created_at__gte=since, created_at__lt=until)
    rows = list(logs.values_list("mode", "degraded", "lexical_hits", "vector_hits", "returned", "latency_ms"))
    lexical_runs = [r for r in rows if r[0] in ("hybrid", "lexical")]
    vector_runs = [r for r in rows if r[0] in ("hybrid", "vector") and not r[1]]
    by_mode: dict[str, int] = {}
    for r in rows:
        by_mode[r[0]] = by_mode.get(r[0], 0) + 1
    return {
        "requests": len(rows),
        "by_mode": by_mode,
        "degraded": sum(1 for r in rows if r[1]),
        "degraded_rate": _rate(sum(1 for r in rows if r[1]), len(rows)),
        "lexical_requests": len(lexical_runs),
        "lexical_hit_rate": _rate(sum(1 for r in lexical_runs if r[2] > 0), len(lexical_runs)),
        "vector_requests": len(vector_runs),
        "vector_hit_rate": _rate(sum(1 for r in vector_runs if r[3] > 0), len(vector_runs)),
        "empty_rate": _rate(sum(1 for r in rows if r[4] == 0), len(rows)),
        "latency_ms": _p([r[5] for r in rows]),
    }


def overwrite_metrics(tenant: Tenant, since: datetime, until: datetime) -> dict[str, Any]:
    window = FactHistory.objects.filter(tenant=tenant, created_at__gte=since, created_at__lt=until)
    # Staff supersessions are approvals or corrections, not proposals to judge.
    automatic = list(
        window.filter(action=HistoryAction.SUPERSEDE)
        .exclude(actor_kind=ActorKind.STAFF)
        .values_list("after", "created_at")
    )
    replacing = {}
    for after, at in automatic:
        new_uuid = (after or {}).get("superseded_by")
        if new_uuid:
            replacing[new_uuid] = at
    reverted = 0
    if replacing:
        staff_actions = FactHistory.objects.filter(
            tenant=tenant, fact_uuid__in=list(replacing), actor_kind=ActorKind.STAFF, action__in=_REVERTING
        ).values_list("fact_uuid", "created_at")
        reverted = len({str(u) for u, at in staff_actions if at >= replacing[str(u)]})
    proposed_pending = list(window.filter(action=HistoryAction.PENDING).values_list("fact_uuid", flat=True))
    rejected = (
        FactHistory.objects.filter(tenant=tenant, fact_uuid__in=proposed_pending, action=HistoryAction.REJECT)
        .values("fact_uuid")
        .distinct()
        .count()
    )
    total = len(automatic) + len(proposed_pending)
    return {
        "automatic_supersessions": len(automatic),
        "held_for_staff": len(proposed_pending),
        "proposed": total,
        "rejected_by_staff": rejected,
        "reverted_by_staff": reverted,
        "wrong": rejected + reverted,
        "wrong_overwrite_rate": _rate(rejected + reverted, total),
    }


def pending_metrics(tenant: Tenant, since: datetime, until: datetime, now: datetime) -> dict[str, Any]:
    created = dict(
        FactHistory.objects.filter(
            tenant=tenant, action=HistoryAction.PENDING, created_at__gte=since, created_at__lt=until
        ).values_list("fact_uuid", "created_at")
    )
    decisions: dict[UUID, tuple[str, datetime]] = {}
    for uuid, action, at in (
        FactHistory.objects.filter(
            tenant=tenant, fact_uuid__in=list(created), action__in=[HistoryAction.CONFIRM, HistoryAction.REJECT]
        )
        .order_by("created_at")
        .values_list("fact_uuid", "action", "created_at")
    ):
        decisions.setdefault(uuid, (action, at))
    waits = [(at - created[uuid]).total_seconds() for uuid, (_, at) in decisions.items()]
    open_since = list(Fact.objects.pending().filter(tenant=tenant).values_list("created_at", flat=True))
    open_ages = [(now - t).total_seconds() for t in open_since]
    return {
        "created": len(created),
        "resolved": len(decisions),
        "approved": sum(1 for a, _ in decisions.values() if a == HistoryAction.CONFIRM),
        "rejected": sum(1 for a, _ in decisions.values() if a == HistoryAction.REJECT),
        "resolution_rate": _rate(len(decisions), len(created)),
        "time_to_resolve_s": _p(waits),
        "open_now": len(open_ages),
        "open_age_s": {"p50": _p(open_ages)["p50"], "max": round(max(open_ages), 1) if open_ages else None},
    }


def extraction_metrics(tenant: Tenant, since: datetime, until: datetime, bucket: timedelta) -> dict[str, Any]:
    states = dict(
        Turn.objects.filter(tenant=tenant, created_at__gte=since, created_at__lt=until)
        .values_list("state")
        .annotate(n=Count("id"))
        .values_list("state", "n")
    )
    # The finished_at range excludes NULL, which the column type cannot tell mypy.
    finished = cast(
        list[tuple[datetime, datetime, float | None, float | None, float | None]],
        list(
            Turn.objects.filter(
                tenant=tenant, state=TurnState.DONE, finished_at__gte=since, finished_at__lt=until
            ).values_list("created_at", "finished_at", "queue_wait_ms", "processing_ms", "llm_ms")
        ),
    )
    end_to_end = [max((f - c).total_seconds() * 1000, 0.0) for c, f, *_ in finished]
    # Whole buckets from `since`; the last one also takes the instant at `until`.
    count = max(1, math.ceil((until - since - timedelta(milliseconds=1)) / bucket))
    grouped: list[list[float]] = [[] for _ in range(count)]
    for (_, finished_at, *_), ms in zip(finished, end_to_end, strict=True):
        grouped[min(int((finished_at - since) / bucket), count - 1)].append(ms)
    series = []
    for i, values in enumerate(grouped):
        p = _p(values)
        start = since + i * bucket
        series.append({"start": start.isoformat(), "turns": len(values), "p50_ms": p["p50"], "p95_ms": p["p95"]})
    return {
        "turns": {state: states.get(state, 0) for state in TurnState.values},
        "backlog_now": Turn.objects.filter(tenant=tenant).waiting().count(),
        # Facts and episodes changed but not yet in the recall index (recall/indexer.py).
        "index_backlog_now": PendingIndex.objects.filter(
            user_id__in=MemoryUser.objects.filter(tenant=tenant).values("pk")
        ).count(),
        "latency_ms": {
            "end_to_end": _p(end_to_end),
            "queue_wait": _p([r[2] for r in finished if r[2] is not None]),
            "processing": _p([r[3] for r in finished if r[3] is not None]),
            "llm": _p([r[4] for r in finished if r[4] is not None]),
        },
        "series": series,
    }


def context_metrics(tenant: Tenant, since: datetime, until: datetime) -> dict[str, Any]:
    logbuffer.flush()
    rows = list(
        ContextLog.objects.filter(tenant=tenant, created_at__gte=since, created_at__lt=until).values_list(
            "tokens", "max_tokens", "dropped", "withheld_sensitive", "latency_ms"
        )
    )
    tokens = [r[0] for r in rows]
    return {
        "requests": len(rows),
        "tokens_total": sum(tokens),
        "tokens_mean": round(sum(tokens) / len(tokens), 1) if tokens else None,
        "tokens": _p([float(t) for t in tokens]),
        "budget_use": _rate(sum(tokens), sum(r[1] for r in rows)),
        "dropped_per_request": round(sum(r[2] for r in rows) / len(rows), 2) if rows else None,
        "withheld_sensitive": sum(r[3] for r in rows),
        "latency_ms": _p([r[4] for r in rows]),
    }


def latest_eval() -> dict[str, Any] | None:
    """The newest eval_recall run (a release check, not per tenant) with deltas against lexical."""
    from recall.models import EvalRun

    run = EvalRun.objects.order_by("-created_at", "-id").first()
    if run is None:
        return None
    results = run.results or {}
    base = results.get("lexical") or {}
    deltas = {
        mode: {m: round(v - base[m], 4) for m, v in values.items() if m.startswith(("recall@", "hit@")) and m in base}
        for mode, values in results.items()
        if mode != "lexical" and isinstance(values, dict)
    }
    return {
        "corpus": run.corpus,
        "questions": run.questions,
        "created_at": run.created_at.isoformat(),
        "results": results,
        "deltas_vs_lexical": deltas,
    }


def window_bounds(window: str, now: datetime | None = None) -> tuple[datetime, datetime]:
    now = now or timezone.now()
    return now - WINDOWS[window], now


def tenant_metrics(tenant: Tenant, *, window: str = "7d", now: datetime | None = None) -> dict[str, Any]:
    now = now or timezone.now()
    since, until = window_bounds(window, now)
    # `until` a moment past now so rows written this instant are inside the window.
    until = until + timedelta(microseconds=1)
    return {
        "tenant_id": str(tenant.id),
        "window": window,
        "since": since.isoformat(),
        "until": now.isoformat(),
        "recall": recall_metrics(tenant, since, until),
        "overwrites": overwrite_metrics(tenant, since, until),
        "pending": pending_metrics(tenant, since, until, now),
        "extraction": extraction_metrics(tenant, since, until, BUCKETS[window]),
        "context": context_metrics(tenant, since, until),
        "eval_recall": latest_eval(),
    }
