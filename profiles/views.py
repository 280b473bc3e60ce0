"""The dashboard's metrics page and the operators' Prometheus endpoint."""

from __future__ import annotations

import hmac
import ipaddress

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers
from prometheus_client import CONTENT_TYPE_LATEST

from facts import selectors
from facts.permissions import tenant_for_staff
from profiles import charts, metrics
from profiles.prometheus import exposition


@login_required
@require_GET
@vary_on_headers("HX-Request")
def metrics_page(request, tenant_id):
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
    template = "profiles/metrics.html"
    if request.htmx:
        template += "#metrics-body"
    return render(request, template, context)


def _ablation_rows(evaluation: dict | None) -> list[dict]:
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


def _scraper_allowed(request) -> bool:
    token = settings.METRICS_TOKEN
    if token:
        header = request.headers.get("Authorization", "")
        presented = header[7:] if header.startswith("Bearer ") else ""
        return hmac.compare_digest(presented.encode(), token.encode())
    # No token: refused, unless loopback scrapes were allowed explicitly. A reverse
    # proxy on this host connects from loopback too, so loopback alone proves nothing.
    if not settings.METRICS_ALLOW_LOOPBACK:
        return False
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False


@require_GET
def prometheus_metrics(request):
    if not _scraper_allowed(request):
        response = HttpResponse(
            "Set METRICS_TOKEN and send it as 'Authorization: Bearer <token>' "
            "(or METRICS_ALLOW_LOOPBACK=true to let this host scrape without one).\n",
            status=401 if settings.METRICS_TOKEN else 403,
            content_type="text/plain; charset=utf-8",
        )
        if settings.METRICS_TOKEN:
            response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return HttpResponse(exposition(), content_type=CONTENT_TYPE_LATEST)
