from __future__ import annotations

import json
from dataclasses import dataclass

from django.test import Client

from facts.models import ApiKey, Tenant


@dataclass
class TenantFixture:
    tenant: Tenant
    raw_key: str

    @property
    def id(self):
        return self.tenant.id


def make_tenant(name: str, scopes=("read", "write", "admin")) -> TenantFixture:
    tenant = Tenant.objects.create(name=name)
    _, raw = ApiKey.objects.issue(tenant=tenant, name=f"{name}-key", scopes=scopes)
    return TenantFixture(tenant, raw)


def issue_key(tenant: Tenant, scopes) -> str:
    return ApiKey.objects.issue(tenant=tenant, name="scoped", scopes=scopes)[1]


class ApiClient:
    """Django's test Client with the bearer header and JSON bodies filled in."""

    def __init__(self, raw_key: str | None):
        self.client = Client()
        self.headers = {"Authorization": f"Bearer {raw_key}"} if raw_key else {}

    def _call(self, method: str, path: str, body=None, raw: bytes | None = None, **params):
        url = path if path.startswith("/api/") else f"/api/v1{path}"
        fn = getattr(self.client, method)
        if method == "get":
            return fn(url, params, headers=self.headers)
        data = raw if raw is not None else (json.dumps(body) if body is not None else None)
        if params:
            from urllib.parse import urlencode

            url = f"{url}?{urlencode(params)}"
        return fn(url, data=data, content_type="application/json", headers=self.headers)

    def get(self, path, **params):
        return self._call("get", path, **params)

    def post(self, path, body=None, raw=None):
        return self._call("post", path, body, raw)

    def patch(self, path, body=None, raw=None):
        return self._call("patch", path, body, raw)

    def delete(self, path, **params):
        return self._call("delete", path, **params)
