"""Erasing a user through the API drops the messages still queued with their words from the
embedded broker and leaves no byte of them in its files; another user's queued turn is kept
and completes once an `llm` worker runs (docs/design.md §8).

Real processes: the web server and a Celery worker on the `db` queue only, so the extractor's
messages (which carry the turn's text) wait in the broker's `llm` queue, as they do when the
LLM workers are on other hosts and behind."""

from __future__ import annotations

import base64
import re
import uuid
from pathlib import Path

import pytest

from tests.db_files import file_bytes
from tests.integration.stack import ROOT, Http, clean_env, manage, start_web, start_worker, wait_for
from tests.migrated import migrate

# About the embedded broker and the worker processes, the same whatever the database engine.
pytestmark = [pytest.mark.integration, pytest.mark.sqlite_only]


def _needles(marker: str) -> list[bytes]:
    """Plain, and as it reads inside kombu's base64 message bodies at each alignment."""
    raw = marker.encode()
    return [raw] + [base64.b64encode(b"=" * k + raw)[4:-4] for k in range(3)]


def _found(broker: Path, marker: str) -> list[str]:
    files = {suffix or "db": file_bytes(Path(f"{broker}{suffix}")) for suffix in ("", "-wal", "-shm")}
    return sorted({name for name, data in files.items() for needle in _needles(marker) if needle in data})


def test_an_erased_users_queued_messages_leave_the_broker_file_and_others_complete(tmp_path):
    var = tmp_path / "var"
    var.mkdir()
    env = clean_env(DATABASE_URL=f"sqlite:///{tmp_path / 'memory.sqlite3'}", MEMORY_VAR_DIR=str(var))
    migrate(env)
    out = manage(["create_tenant", "acme", "--scopes", "read,write,admin"], env)
    api_key = re.search(r"^api_key=(\S+)$", out, re.MULTILINE).group(1)
    victim, bystander = f"zqvictim{uuid.uuid4().hex[:10]}7", f"zqbystander{uuid.uuid4().hex[:10]}7"
    procs = []
    try:
        web, base = start_web(env, tmp_path)
        procs.append(web)
        procs.append(start_worker("db", "db", cwd=ROOT, env=env, log_dir=tmp_path))
        http = Http(base, api_key, timeout=120)
        for user, marker, n in (("victim", victim, 2), ("bystander", bystander, 1)):
            for i in range(n):
                body = {"session_id": "s1", "turn_id": f"t{i}", "user_input": f"I keep my {marker} in the garage."}
                assert http.post(f"/users/{user}/turns", body)[0] == 202

        def claimed(user: str, turn: str) -> bool:
            return http.get(f"/users/{user}/turns/{turn}")[1]["status"] == "extracting"

        wait_for(lambda: claimed("victim", "t1") and claimed("bystander", "t0"), 120, 0.2, "turns claimed")
        broker = var / "broker.sqlite3"
        assert _found(broker, victim), "the victim's words are not in the broker: the scan would prove nothing"

        status, receipt = http.call("DELETE", "/users/victim")
        assert status == 200 and receipt["counts"]["turns"] == 2

        assert _found(broker, victim) == [], "the erased user's words are still in the broker's files"
        assert _found(broker, bystander), "another user's queued turn was dropped"
        procs.append(start_worker("llm", "llm,db", cwd=ROOT, env=env, log_dir=tmp_path))
        wait_for(lambda: http.get("/users/bystander/turns/t0")[1]["status"] == "done", 120, 0.3, "bystander done")
        assert http.get("/users/victim/turns/t0")[0] == 404
    finally:
        for proc in reversed(procs):
            proc.stop()
