"""The API's one error body as exceptions: `{"detail", "rule"?, "field"?, "errors"?, "retry_after"?}`."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An answer with a 4xx or 5xx status. `rule` names the rule that refused the input (a 422),
    `errors` lists schema problems (`{"type", "loc", "msg"}`), `field` the key or id a rule read."""

    status: int = 0

    def __init__(self, status: int, body: dict[str, Any] | None = None, *, method: str = "", path: str = ""):
        body = body or {}
        self.status = status
        self.detail: str = str(body.get("detail", "")) or f"HTTP {status}"
        self.rule: str | None = body.get("rule")
        self.field: str | None = body.get("field")
        self.errors: list[dict[str, Any]] = list(body.get("errors") or [])
        self.retry_after: float | None = body.get("retry_after")
        self.body = body
        super().__init__(f"{status} {method} {path}: {self.detail}" + (f" (rule {self.rule})" if self.rule else ""))


class BadRequest(ApiError):
    """400: the body is not valid JSON."""


class Unauthorized(ApiError):
    """401: no key, or an unknown or revoked one."""


class Forbidden(ApiError):
    """403: the key lacks the route's scope."""


class NotFound(ApiError):
    """404: not found, or another tenant's."""


class Conflict(ApiError):
    """409: a retired fact, a reused turn_id with other content, a retry of a turn that has not failed."""


class Rejected(ApiError):
    """422: a named rule refused the input (`rule`), or the request does not fit the schema (`errors`)."""


class RateLimited(ApiError):
    """429: over the key's rate limit; `retry_after` seconds."""


class ServerError(ApiError):
    """5xx."""


_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    422: Rejected,
    429: RateLimited,
}


def error_for(status: int, body: Any, *, method: str, path: str) -> ApiError:
    kind = _BY_STATUS.get(status, ServerError if status >= 500 else ApiError)
    return kind(status, body if isinstance(body, dict) else {"detail": str(body)[:500]}, method=method, path=path)
