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


def _issue(tenant_id: str, scopes: str, env: dict) -> str:
    out = manage(["issue_key", tenant_id, "--key-name", scopes.replace(",", "-"), "--scopes", scopes], env)
    return re.search(r"^api_key=(\S+)$", out, re.MULTILINE).group(1)


def _tenant(name: str, env: dict) -> tuple[str, str]:
    out = manage(["create_tenant", name], env)
    return (
        re.search(r"^tenant_id=(\S+)$", out, re.MULTILINE).group(1),
        re.search(r"^api_key=(\S+)$", out, re.MULTILINE).group(1),
    )


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
    alice_id, alice = _tenant("alice", env)
    _, bob = _tenant("bob", env)
    keys = {"alice_read": _issue(alice_id, "read", env), "alice_write": _issue(alice_id, "read,write", env)}
    web, base = start_web(env, tmp)
    try:
        _warm_up(base, alice)
        yield Live(base=base, env=env, tmp=tmp, alice=alice, bob=bob, web=web, **keys)
    finally:
        web.stop()
