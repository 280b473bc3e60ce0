"""What an unknown address answers: JSON for API clients, a page with navigation for people.

Every API error answers `{"detail": str}` (docs/api.md), also for a route that does not
exist or a method a route does not take; a person who follows a stale dashboard link gets
the dashboard's own page with a way back instead of Django's bare one.
"""

from __future__ import annotations

from collections.abc import Callable

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
    return render(request, "dashboard/404.html", {"path": request.path}, status=404)


class JsonMethodNotAllowed:
    """A 405 on the API as the one error body, its Allow header kept: django-ninja (and
    Django's require_http_methods) answer a method a path does not take with a bare text page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or not request.path.startswith(API_PREFIXES):
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        # django-ninja builds the header from a set, so its order changes between processes.
        allowed = ", ".join(sorted(m.strip() for m in response.get("Allow", "").split(",") if m.strip()))
        detail = f"{request.method} is not allowed at {request.path}; it takes {allowed or 'no method'}."
        answer = JsonResponse({"detail": detail}, status=405)
        answer["Allow"] = allowed
        return answer
