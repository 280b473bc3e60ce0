"""Forgetting a fact leaves no byte of its words in the database files, nor in the user's export,
whichever door asked:
REST (by id and by key), MCP `delete_memory`, mem0's delete and delete-all, and the dashboard's
forget-key. Each door is driven with its real client against a live server; the files are read
from a child process (tests/db_files.py), on PostgreSQL the cluster's table and index files after
the compaction pass that rewrites the tables (recall/engines/postgresql/compactor.py). One forget in
facts.services serves them all."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from mem0 import MemoryClient

from tests.connectors.test_mcp_http import ok, session
from tests.db_files import file_bytes, postgres_data_files
from tests.integration.stack import manage

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def _marker(door: str) -> str:
    return f"zq{door.replace('_', '')}{uuid.uuid4().hex[:10]}7"


def _store(live, user_id: str, text: str, key: str, entity: str) -> str:
    answer = httpx.post(
        f"{live.base}/api/v1/users/{user_id}/facts",
        json={"text": text, "key": key, "entities": [entity]},
        headers={"Authorization": f"Bearer {live.alice}"},
        timeout=120,
    )
    assert answer.status_code == 201, answer.text
    return answer.json()["id"]


def _files(live, *, compact: bool = True) -> dict[str, bytes]:
    if live.env["DATABASE_URL"].startswith("postgres"):
        # A forget leaves the rewrite of the tables to the background pass: run it on the
        # server's database, as beat would (recall/engines/postgresql/compactor.py). Before the
        # forget there is nothing for it to do.
        if compact:
            manage(["shell", "-c", "from core import engine; engine.current().compact_pass()"], live.env)
        return postgres_data_files(urlsplit(live.env["DATABASE_URL"]).path.lstrip("/"))
    db = live.tmp / "var" / "memory.sqlite3"
    return {suffix or "db": file_bytes(Path(f"{db}{suffix}")) for suffix in ("", "-wal", "-shm")}


def _found(files: dict[str, bytes], word: str) -> list[str]:
    # The whole word, and its last 8 characters: FTS5 prefix-compresses the terms it stores.
    return [name for name, data in files.items() for needle in (word, word[-8:]) if needle.encode() in data]


def _rest_by_id(live, user_id, fact_id, key):
    answer = httpx.delete(f"{live.base}/api/v1/facts/{fact_id}", headers={"Authorization": f"Bearer {live.alice}"})
    assert answer.status_code == 204, answer.text


def _rest_by_key(live, user_id, fact_id, key):
    answer = httpx.delete(
        f"{live.base}/api/v1/users/{user_id}/facts",
        params={"key": key},
        headers={"Authorization": f"Bearer {live.alice}"},
    )
    assert answer.json() == {"deleted": 1}


def _mcp_delete_memory(live, user_id, fact_id, key):
    async def steps(client):
        return ok(await client.call_tool("delete_memory", {"user_id": user_id, "memory_id": fact_id}))

    assert session(live, live.alice, steps) == {"deleted": fact_id}


def _mem0_delete(live, user_id, fact_id, key):
    assert MemoryClient(api_key=live.alice, host=live.base).delete(fact_id)["message"]


def _mem0_delete_all(live, user_id, fact_id, key):
    assert MemoryClient(api_key=live.alice, host=live.base).delete_all(user_id=user_id)["message"]


def _dashboard_forget_key(live, user_id, fact_id, key):
    staff = f"staff-{uuid.uuid4().hex[:8]}"
    manage(["shell", "-c", _MAKE_STAFF.format(name=staff)], live.env)
    with httpx.Client(base_url=live.base, timeout=120, follow_redirects=False) as browser:
        login = browser.get("/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login.text).group(1)
        answer = browser.post(
            "/login/", data={"username": staff, "password": "pw-Forget-9", "csrfmiddlewaretoken": token}
        )
        assert answer.status_code == 302, "the staff login failed"
        tenant_id = _tenant_of(browser)
        page = browser.get(f"/t/{tenant_id}/users/{user_id}/erase/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
        answer = browser.post(
            f"/t/{tenant_id}/users/{user_id}/forget-key/",
            data={"key": key, "confirm": key, "csrfmiddlewaretoken": token},
        )
        assert answer.status_code == 302, answer.text[:500]


_MAKE_STAFF = (
    "from django.contrib.auth.models import User; from facts.models import Tenant; "
    "u = User.objects.create_user('{name}', password='pw-Forget-9'); Tenant.objects.get(name='alice').staff.add(u)"
)


def _tenant_of(browser: httpx.Client) -> str:
    return re.search(r'href="/t/([0-9a-f-]+)/"', browser.get("/").text).group(1)


DOORS = {
    "rest_by_id": _rest_by_id,
    "rest_by_key": _rest_by_key,
    "mcp_delete_memory": _mcp_delete_memory,
    "mem0_delete": _mem0_delete,
    "mem0_delete_all": _mem0_delete_all,
    "dashboard_forget_key": _dashboard_forget_key,
}


def _export(live, user_id: str) -> str:
    answer = httpx.get(f"{live.base}/api/v1/users/{user_id}/export", headers={"Authorization": f"Bearer {live.alice}"})
    assert answer.status_code == 200, answer.text
    return answer.text


@pytest.mark.parametrize("door", DOORS)
def test_a_fact_forgotten_through_any_door_leaves_no_byte_of_its_words_in_the_files(live, door):
    user_id, secret, kept = f"door-{door}", _marker(door), _marker("kept")
    # The entity it was stored with is its words too (an entity nothing else names goes with it).
    clinic = _marker("clinic")
    key = f"secret_{door}"
    fact_id = _store(live, user_id, f"User keeps {secret} in the cellar.", key, f"Zelmorah {clinic} Clinic")
    if door != "mem0_delete_all":
        _store(live, user_id, f"User grows {kept} in the garden.", "garden", "Garden")
    before = _files(live, compact=False)
    assert _found(before, secret), "the words were not written, so their absence would prove nothing"
    assert _found(before, clinic) and clinic in _export(live, user_id)

    DOORS[door](live, user_id, fact_id, key)

    files = _files(live)
    for word in (secret, clinic):
        assert _found(files, word) == [], f"forgotten words still in {_found(files, word)}"
        assert word not in _export(live, user_id)
    if door != "mem0_delete_all":
        assert _found(files, kept), "the user's other fact went too"
    history = httpx.get(
        f"{live.base}/api/v1/facts/{fact_id}/history", headers={"Authorization": f"Bearer {live.alice}"}
    )
    assert history.status_code == 404 or secret not in json.dumps(history.json())
