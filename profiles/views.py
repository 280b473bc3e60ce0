"""The operators' Prometheus endpoint (the dashboard's metrics page is dashboard/views/metrics.py)."""

from __future__ import annotations

import hmac
import ipaddress

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST

from profiles.prometheus import exposition


def _scraper_allowed(request: HttpRequest) -> bool:
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
def prometheus_metrics(request: HttpRequest) -> HttpResponse:
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
