"""Prometheus text exposition of the metrics, for operators (`GET /metrics`).

Gauges describe the last 24 hours of each tenant (the same figures as the
API's `window=24h`); counters are all-time totals, so Prometheus can take
rates over any range it likes. Built on prometheus_client's own exposition
code, so the output is valid text format by construction.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.db.models import Count, Sum
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

from facts import logbuffer
from facts.models import Tenant, Turn
from profiles import metrics
from profiles.models import ContextLog, Profile

WINDOW = "24h"


def _gauge(name: str, doc: str, labels: list[str]) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, doc, labels=labels)


TENANT_LABELS = ["tenant", "tenant_name"]


def _window_gauges() -> dict[str, GaugeMetricFamily]:
    t_labels = TENANT_LABELS
    return {
        "lexical": _gauge(
            "memory_recall_lexical_hit_rate", "Share of recalls (24h) where BM25 found a fact.", t_labels
        ),
        "vector": _gauge(
            "memory_recall_vector_hit_rate",
            "Share of recalls (24h) where the vector search found a fact.",
            t_labels,
        ),
        "recall_latency": _gauge("memory_recall_latency_seconds", "Recall latency over 24h.", [*t_labels, "quantile"]),
        "wrong": _gauge(
            "memory_wrong_overwrite_rate",
            "Share of proposed overwrites (24h) later rejected or reverted by staff.",
            t_labels,
        ),
        "resolution": _gauge(
            "memory_pending_resolution_rate", "Share of pending changes created in 24h that were decided.", t_labels
        ),
        "open": _gauge("memory_pending_open", "Pending changes waiting for staff now.", t_labels),
        "oldest": _gauge("memory_pending_oldest_age_seconds", "Age of the oldest pending change.", t_labels),
        "extraction": _gauge(
            "memory_extraction_latency_seconds",
            "Turn arrival to applied result, over 24h.",
            [*t_labels, "quantile"],
        ),
        "backlog": _gauge("memory_extraction_backlog", "Turns queued or extracting now.", t_labels),
        "index_backlog": _gauge(
            "memory_index_backlog", "Facts and episodes changed and not yet in the recall index now.", t_labels
        ),
        "ctx_tokens": _gauge(
            "memory_context_block_tokens", "Tokens per context block over 24h.", [*t_labels, "quantile"]
        ),
    }


def _set(family: GaugeMetricFamily, labels: list[str], value: float | None) -> None:
    # A rate with no traffic behind it is absent, not zero: no requests is not a 0% hit rate.
    if value is not None:
        family.add_metric(labels, float(value))


def _add_tenant_window(g: dict[str, GaugeMetricFamily], tenant: Tenant) -> None:
    """One tenant's figures over the last 24 hours, into the window gauges."""
    tl = [str(tenant.id), tenant.name]
    since, until = metrics.window_bounds(WINDOW)
    recall = metrics.recall_metrics(tenant, since, until)
    over = metrics.overwrite_metrics(tenant, since, until)
    pending = metrics.pending_metrics(tenant, since, until, until)
    extraction = metrics.extraction_metrics(tenant, since, until, metrics.WINDOWS[WINDOW])
    context = metrics.context_metrics(tenant, since, until)
    _set(g["lexical"], tl, recall["lexical_hit_rate"])
    _set(g["vector"], tl, recall["vector_hit_rate"])
    _set(g["wrong"], tl, over["wrong_overwrite_rate"])
    _set(g["resolution"], tl, pending["resolution_rate"])
    _set(g["open"], tl, pending["open_now"])
    _set(g["oldest"], tl, pending["open_age_s"]["max"] or 0)
    _set(g["backlog"], tl, extraction["backlog_now"])
    _set(g["index_backlog"], tl, extraction["index_backlog_now"])
    for q in ("p50", "p95"):
        quantile = "0.5" if q == "p50" else "0.95"
        _set(g["recall_latency"], [*tl, quantile], _seconds(recall["latency_ms"][q]))
        _set(g["extraction"], [*tl, quantile], _seconds(extraction["latency_ms"]["end_to_end"][q]))
        _set(g["ctx_tokens"], [*tl, quantile], context["tokens"][q])


def _recall_requests(names: dict[str, str]) -> CounterMetricFamily:
    from recall.models import RecallLog

    logbuffer.flush()  # this process's buffered rows count too
    recalls = CounterMetricFamily(
        "memory_recall_requests", "Recall requests by mode.", labels=[*TENANT_LABELS, "mode", "degraded"]
    )
    for row in RecallLog.objects.values("tenant_id", "mode", "degraded").annotate(n=Count("id")).order_by():
        tid = str(row["tenant_id"])
        recalls.add_metric([tid, names.get(tid, ""), row["mode"], str(row["degraded"]).lower()], row["n"])
    return recalls


def _turns(names: dict[str, str]) -> CounterMetricFamily:
    turns = CounterMetricFamily(
        "memory_turns", "Turns received, by extraction state.", labels=[*TENANT_LABELS, "state"]
    )
    for row in Turn.objects.values("tenant_id", "state").annotate(n=Count("id")).order_by():
        tid = str(row["tenant_id"])
        turns.add_metric([tid, names.get(tid, ""), row["state"]], row["n"])
    return turns


def _context_served(names: dict[str, str]) -> tuple[CounterMetricFamily, CounterMetricFamily]:
    ctx_requests = CounterMetricFamily("memory_context_requests", "Context blocks served.", labels=TENANT_LABELS)
    ctx_tokens = CounterMetricFamily(
        "memory_context_tokens", "Tokens of all context blocks served.", labels=TENANT_LABELS
    )
    for row in ContextLog.objects.values("tenant_id").annotate(n=Count("id"), tokens=Sum("tokens")).order_by():
        tid = str(row["tenant_id"])
        ctx_requests.add_metric([tid, names.get(tid, "")], row["n"])
        ctx_tokens.add_metric([tid, names.get(tid, "")], row["tokens"] or 0)
    return ctx_requests, ctx_tokens


def _profile_versions(names: dict[str, str]) -> GaugeMetricFamily:
    profiles = _gauge(
        "memory_profile_versions_stored", "Profile versions stored (older ones are pruned).", TENANT_LABELS
    )
    for row in Profile.objects.values("tenant_id").annotate(n=Count("id")).order_by():
        tid = str(row["tenant_id"])
        profiles.add_metric([tid, names.get(tid, "")], row["n"])
    return profiles


def _latest_eval() -> GaugeMetricFamily:
    run = metrics.latest_eval()
    evals = _gauge("memory_eval_recall", "Latest eval_recall run: metric per mode.", ["corpus", "mode", "metric"])
    if run:
        for mode, values in run["results"].items():
            for metric, value in (values or {}).items():
                if isinstance(value, int | float):
                    evals.add_metric([run["corpus"], mode, metric], float(value))
    return evals


class MemoryCollector:
    def collect(self) -> Iterator[Metric]:
        tenants = list(Tenant.objects.order_by("name", "id"))
        gauges = _window_gauges()
        for tenant in tenants:
            _add_tenant_window(gauges, tenant)
        yield from gauges.values()

        names = {str(t.id): t.name for t in tenants}
        yield _recall_requests(names)
        yield _turns(names)
        yield from _context_served(names)
        yield _profile_versions(names)
        yield _latest_eval()


def _seconds(ms: float | None) -> float | None:
    return None if ms is None else ms / 1000


def exposition() -> bytes:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(MemoryCollector())
    return generate_latest(registry)
