"""One family of domain errors; `memory_service.api` maps them to HTTP responses."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    status = 400

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class NotFound(ServiceError):
    status = 404


class ScopeDenied(ServiceError):
    status = 403


class Conflict(ServiceError):
    status = 409


class Rejected(ServiceError):
    """Input refused by a named rule (injection floor, size, budget)."""

    status = 422

    def __init__(self, rule: str, detail: str) -> None:
        super().__init__(detail, rule=rule)
        self.rule = rule


class RateLimited(ServiceError):
    """Over the key's request rate; `retry_after` seconds until the window resets."""

    status = 429

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail, retry_after=retry_after)
        self.headers = {"Retry-After": str(retry_after)}
