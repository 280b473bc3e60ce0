"""The one NinjaAPI: routers of each app, auth, and the mapping of domain errors."""

from __future__ import annotations

from ninja import NinjaAPI

from facts.api import router as facts_router
from facts.privacy_api import router as privacy_router
from facts.turns_api import router as turns_router
from memory_service.auth import api_key_auth
from memory_service.errors import ServiceError
from memory_service.health import router as health_router
from profiles.api import router as profiles_router
from recall.api import router as recall_router

api = NinjaAPI(
    title="Memory service",
    version="1",
    description="Long-term memory for LLM assistants: facts, recall, profiles, privacy.",
    auth=api_key_auth,
    urls_namespace="api",
)

api.add_router("", health_router)
api.add_router("", facts_router)
api.add_router("", turns_router)
api.add_router("", recall_router)
api.add_router("", profiles_router)
api.add_router("", privacy_router)


@api.exception_handler(ServiceError)
def service_error(request, exc: ServiceError):
    response = api.create_response(request, {"detail": exc.detail, **exc.extra}, status=exc.status)
    for name, value in getattr(exc, "headers", {}).items():
        response[name] = value
    return response
