"""Typed client for the memory service's REST API (/api/v1): `Client` (sync) and `AsyncClient`."""

from memory_service_client.client import AsyncClient, Client, Retry
from memory_service_client.errors import (
    ApiError,
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    RateLimited,
    Rejected,
    ServerError,
    Unauthorized,
)

__all__ = [
    "ApiError",
    "AsyncClient",
    "BadRequest",
    "Client",
    "Conflict",
    "Forbidden",
    "NotFound",
    "RateLimited",
    "Rejected",
    "Retry",
    "ServerError",
    "Unauthorized",
]
