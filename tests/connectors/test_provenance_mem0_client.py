"""mem0ai's own MemoryClient (2.2.1), unchanged, reads the provenance we put in mem0's `metadata`
(`{"source": {turn_id, session_id, occurred_at, extractor, model}}`, docs/mem0.md) from search,
get_all and get against a live server; a memory stored with infer=False has null metadata."""

from __future__ import annotations

from datetime import datetime

import pytest
from mem0 import MemoryClient

pytestmark = [pytest.mark.integration, pytest.mark.slow]

USER = "m0-provenance"


def test_the_client_reads_where_a_memory_came_from_in_its_metadata(live):
    mem0 = MemoryClient(api_key=live.alice, host=live.base)
    said = [{"role": "user", "content": "I live in Porto"}]
    [event] = mem0.add(said, filters={"user_id": USER, "run_id": "trip"})["results"]
    direct = mem0.add("Prefers window seats", filters={"user_id": USER}, infer=False)["results"][0]

    found = mem0.search("Porto", filters={"user_id": USER}, top_k=5)["results"]
    listed = mem0.get_all(filters={"user_id": USER})["results"]
    for memories in (found, listed):
        by_text = {m["memory"]: m for m in memories}
        source = by_text["User lives in Porto."]["metadata"]["source"]
        assert (source["turn_id"], source["session_id"], source["extractor"]) == (event["event_id"], "trip", "rules")
        assert datetime.fromisoformat(source["occurred_at"]).tzinfo is not None
        assert by_text["Prefers window seats"]["metadata"] is None
    porto = next(m for m in listed if m["memory"] == "User lives in Porto.")
    assert mem0.get(porto["id"])["metadata"] == porto["metadata"]
    assert mem0.get(direct["id"])["metadata"] is None
