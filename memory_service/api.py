"""The one NinjaAPI: routers of each app, auth, and the mapping of errors to the one error body."""

from __future__ import annotations

from collections.abc import Iterable

from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, ValidationError

from core.errors import ServiceError
from facts.api import router as facts_router
from facts.auth import api_key_auth
from facts.memory_mode_api import router as memory_mode_router
from facts.privacy_api import router as privacy_router
from facts.turns_api import router as turns_router
from importer.api import router as import_router
from memory_service.health import router as health_router
from profiles.api import router as profiles_router
from recall.api import router as recall_router
from webhooks.api import router as webhooks_router

api = NinjaAPI(
    title="Memory service",
    version="1",
    description=(
        "Long-term memory for LLM assistants: facts, recall, profiles, privacy. "
        'Every error answers `{"detail": str}`; a 422 adds `rule` (refused by a named rule) '
        "or `errors` (the request does not fit this schema)."
    ),
    auth=api_key_auth,
    urls_namespace="api",
)

api.add_router("", health_router)
api.add_router("", facts_router)
api.add_router("", turns_router)
api.add_router("", memory_mode_router)
api.add_router("", recall_router)
api.add_router("", profiles_router)
api.add_router("", privacy_router)
api.add_router("", import_router)
api.add_router("", webhooks_router)


@api.exception_handler(ServiceError)
def service_error(request: HttpRequest, exc: ServiceError) -> HttpResponse:
    response = api.create_response(request, {"detail": exc.detail, **exc.extra}, status=exc.status)
    for name, value in getattr(exc, "headers", {}).items():  # e.g. Retry-After on a 429
        response[name] = value
    return response


@api.exception_handler(AuthenticationError)
def authentication_error(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    """401. A key sent the way mem0's Platform clients send it gets told the scheme /api/v1 takes."""
    scheme = request.headers.get("Authorization", "").partition(" ")[0].lower()
    detail = "Unauthorized"
    if scheme == "token":
        detail = (
            "Unauthorized: /api/v1 takes the key as 'Authorization: Bearer <key>', not 'Token <key>' "
            "(Token is for the mem0-compatible routes, docs/mem0.md)."
        )
    return api.create_response(request, {"detail": detail}, status=401)


def _loc(loc: Iterable[str | int]) -> list[str | int]:
    # ninja puts the handler's argument name after "body" ("body", "payload", "text"): drop it.
    parts = list(loc)
    if len(parts) > 1 and parts[0] == "body" and parts[1] == "payload":
        del parts[1]
    return parts


@api.exception_handler(ValidationError)
def validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    """A request that does not fit the schema: the one error body, a sentence plus each problem."""
    issues = [
        {"type": str(e.get("type", "")), "loc": _loc(e.get("loc", ())), "msg": str(e.get("msg", ""))}
        for e in exc.errors
    ]
    first = issues[0] if issues else {"loc": [], "msg": "invalid input"}
    more = f" (and {len(issues) - 1} more)" if len(issues) > 1 else ""
    detail = f"Invalid request: {'.'.join(map(str, first['loc']))}: {first['msg']}{more}."
    return api.create_response(request, {"detail": detail, "errors": issues}, status=422)
