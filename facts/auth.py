"""API-key authentication: `Authorization: Bearer <key>`; the key decides the tenant.

The mem0-compatible routes (mem0_api) also take `Authorization: Token <key>`,
the scheme mem0's clients send; /api/v1 stays Bearer only, as documented.
It lives with the tenant models it reads (facts.models, facts.key_cache), below every app's API.
"""

from __future__ import annotations

from django.http import HttpRequest
from ninja.security import APIKeyHeader, HttpBearer

from core.errors import ScopeDenied
from core.ratelimit import check_rate
from facts.bookkeeping import note_key_used
from facts.key_cache import key_for
from facts.models import ApiKey, Tenant


class KeyRequest(HttpRequest):
    """A request of a route behind api_key_auth or token_or_bearer_auth, as its view sees it:
    django-ninja has set `auth` to the caller's ApiKey. For type checking only; the object is
    Django's own request."""

    auth: ApiKey


def authenticate_key(request: HttpRequest, token: str, rate_class: str | None = None) -> ApiKey | None:
    """The usable key for a presented secret, counted against its rate limit (the route's class,
    or `rate_class` where the route does not tell it: /mcp) and noted as used; None if unknown.
    Raises RateLimited over the limit."""
    key = key_for(token)
    if key is not None:
        check_rate(key.key_hash, request, rate_class)
        note_key_used(key)
    return key


class ApiKeyAuth(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> ApiKey | None:
        return authenticate_key(request, token)


api_key_auth = ApiKeyAuth()


class TokenOrBearerAuth(APIKeyHeader):
    """`Authorization: Token <key>` (mem0's clients) or `Authorization: Bearer <key>`."""

    param_name = "Authorization"

    def authenticate(self, request: HttpRequest, key: str | None) -> ApiKey | None:
        scheme, _, token = (key or "").partition(" ")
        if scheme.lower() not in {"token", "bearer"} or not token.strip():
            return None
        return api_key_auth.authenticate(request, token.strip())


token_or_bearer_auth = TokenOrBearerAuth()


def require_scope(request: KeyRequest, scope: str) -> Tenant:
    """The request's tenant, if its key carries `scope` (admin implies all)."""
    key = request.auth
    if not key.has_scope(scope):
        raise ScopeDenied(f"This API key lacks the '{scope}' scope.")
    return key.tenant
