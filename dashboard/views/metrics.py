"""The dashboard's metrics page: the figures of profiles.metrics, drawn as small SVG charts."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from dashboard import charts
from dashboard.views.common import StaffRequest
from facts import selectors
from facts.permissions import tenant_for_staff
from profiles import metrics


@login_required
@require_GET
@vary_on_headers("HX-Request")
def metrics_page(request: StaffRequest, tenant_id: UUID) -> HttpResponse:
    tenant = tenant_for_staff(request.user, tenant_id)
    window = request.GET.get("window", "7d")
    if window not in metrics.WINDOWS:
        window = "7d"
    data = metrics.tenant_metrics(tenant, window=window)
    evaluation = data["eval_recall"]
    context = {
        "tenant": tenant,
        "queue_count": selectors.pending_count(tenant=tenant),
        "m": data,
        "window": window,
        "windows": list(metrics.WINDOWS),
        "latency_chart": charts.latency_chart(data["extraction"]["series"]),
        "ablation_chart": charts.ablation_chart(evaluation["results"]) if evaluation else None,
        "ablation_rows": _ablation_rows(evaluation),
    }
    template = "dashboard/metrics.html"
    if request.htmx:
        template += "#metrics-body"
    return render(request, template, context)


def _ablation_rows(evaluation: dict[str, Any] | None) -> list[dict[str, Any]]:
    if not evaluation:
        return []
    rows = []
    for mode in ("lexical", "vector", "hybrid"):
        values = evaluation["results"].get(mode)
        if isinstance(values, dict):
            rows.append(
                {
                    "mode": mode,
                    "recall10": values.get("recall@10"),
                    "delta": evaluation["deltas_vs_lexical"].get(mode, {}).get("recall@10"),
                    "hit10": values.get("hit@10"),
                    "p50": values.get("p50_ms"),
                    "p95": values.get("p95_ms"),
                }
            )
    return rows
