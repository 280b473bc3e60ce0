"""One live server process for the connector suites: runserver on a fresh SQLite file, extraction eager
in that process with the offline rules extractor (no OPENAI key), and keys for two tenants."""

from __future__ import annotations

import json
import os
import re
import tempfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.base import service_database_url
from tests.integration.stack import Proc, clean_env, manage, start_web
from tests.migrated import migrate

# mem0ai reads these when imported: no telemetry (it would call out), its config in a temp folder.
os.environ["MEM0_TELEMETRY"] = "False"
os.environ.setdefault("MEM0_DIR", tempfile.mkdtemp(prefix="mem0-"))


@dataclass
class Live:
    base: str
    env: dict
    tmp: Path
    alice: str  # read, write, admin
    alice_read: str
    alice_write: str
    bob: str
    web: Proc


# Both tenants and their keys in one Django process (a process start is seconds of a loaded CI
# machine); create_tenant and issue_key themselves are tested in tests/facts/test_commands.py.
_KEYS = """
import json
from facts.models import ApiKey, Tenant
keys = {}
for name in ("alice", "bob"):
    tenant = Tenant.objects.create(name=name)
    keys[name] = ApiKey.objects.issue(tenant=tenant, name="default", scopes=["read", "write", "admin"])[1]
    if name == "alice":
        keys["alice_read"] = ApiKey.objects.issue(tenant=tenant, name="read", scopes=["read"])[1]
        keys["alice_write"] = ApiKey.objects.issue(tenant=tenant, name="read-write", scopes=["read", "write"])[1]
print("keys=" + json.dumps(keys))
"""


def _tenants_and_keys(env: dict) -> dict[str, str]:
    out = manage(["shell", "-c", _KEYS], env)
    return json.loads(re.search(r"^keys=(.+)$", out, re.MULTILINE).group(1))


def _warm_up(base: str, key: str) -> None:
    """Store one fact over REST so the server loads its embedding model before the timed client calls."""
    body = json.dumps({"text": "Warm-up fact"}).encode()
    request = urllib.request.Request(
        f"{base}/api/v1/users/warm-up/facts",
        data=body,
        method="POST",
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=300) as answer:
        assert answer.status == 201


@pytest.fixture(scope="session")
def live(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("connectors")
    var = tmp / "var"
    var.mkdir()
    env = clean_env(DATABASE_URL=service_database_url(var), MEMORY_VAR_DIR=str(var), CELERY_TASK_ALWAYS_EAGER="1")
    migrate(env)
    keys = _tenants_and_keys(env)
    web, base = start_web(env, tmp)
    try:
        _warm_up(base, keys["alice"])
        yield Live(base=base, env=env, tmp=tmp, web=web, **keys)
    finally:
        web.stop()
