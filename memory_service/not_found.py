"""What an unknown address answers: JSON for API clients, a page with navigation for people.

Every API error answers `{"detail": str}` (docs/api.md), also for a route that does not
exist; a person who follows a stale dashboard link gets the dashboard's own page with a
way back instead of Django's bare one.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

# The API's mounts (memory_service/urls.py): REST, MCP and the mem0-compatible routes.
API_PREFIXES = ("/api/", "/mcp", "/v1/", "/v2/", "/v3/")


def _wants_json(request: HttpRequest) -> bool:
    if request.path.startswith(API_PREFIXES):
        return True
    accept = request.headers.get("Accept", "")
    return "json" in accept and "html" not in accept


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _wants_json(request):
        detail = f"Nothing is at {request.path}; the routes are listed at /api/v1/docs."
        return JsonResponse({"detail": detail}, status=404)
    return render(request, "404.html", {"path": request.path}, status=404)
