from __future__ import annotations

import atexit
import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.test import Client

from core.db.postgresql_urls import connect_kwargs, database_config, url_of
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


def database_url() -> str:
    """A URL of the database this test process runs on, for the processes a test starts."""
    from django.db import connection

    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    return url_of(settings)


def _server() -> dict:
    """Django settings of the PostgreSQL server this run uses (DATABASE_URL, tests/on_postgres.py)."""
    import os

    return database_config(os.environ["DATABASE_URL"])


def server_connection(database: str | None = None) -> Any:
    """An autocommit connection to the run's PostgreSQL server (its test database, or `database`)."""
    import psycopg

    return psycopg.connect(**connect_kwargs(_server(), database), autocommit=True)


def postgres_checkpoint() -> None:
    """Write every dirty page to the data files (they stay in shared buffers until a checkpoint)."""
    with server_connection() as conn:
        conn.execute("CHECKPOINT")


def service_database_url(folder) -> str:
    """A fresh, empty database for a server or worker a test starts: a file in `folder` on
    SQLite; on PostgreSQL a new database on the server the run uses (tests/on_postgres.py),
    named after the folder, so nothing is shared with the test database."""
    import os
    import re

    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        return f"sqlite:///{folder}/memory.sqlite3"
    server = _server()
    name = "svc_" + re.sub(r"[^a-z0-9]+", "_", str(folder).lower())[-50:].strip("_")
    with server_connection() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return url_of(server, name)


@contextlib.contextmanager
def private_postgres(prefix: str) -> Iterator[Any]:
    """A PostgreSQL 16 of its own from the pgserver wheel, in a temporary folder, stopped after."""
    os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="runtime-"))
    import pgserver

    from tests.on_postgres import no_durability

    server = pgserver.get_server(tempfile.mkdtemp(prefix=prefix), cleanup_mode="stop")
    try:
        no_durability(server)
        yield server
    finally:
        server.cleanup()
        # Stopped: its exit handler would only log, after pytest has closed the streams.
        atexit.unregister(server._cleanup)
