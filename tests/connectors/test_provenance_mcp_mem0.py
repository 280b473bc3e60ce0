"""Provenance through the doors a model reads (issue 37 item 2): MCP's memories and past messages
carry a compact `source` (the turn's id, session, time and extractor), mem0's memories carry it in
`metadata.source`, on the Platform and the self-hosted routes; a memory no turn stated has a null
source. In process, through /mcp and the mem0 routes, with the offline rules extractor."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest
from django.test import Client

from facts.models import Fact, Turn
from tests.base import ApiClient
from tests.connectors.test_mcp_rate_limits import post, tool_call
from tests.connectors.test_mem0_routes import call

# The turns are extracted and indexed after their commit.
pytestmark = pytest.mark.django_db(transaction=True)

USER = "p1"
LIVES = "I live in Lisbon."  # the rules extractor keeps a fact from it
DOG = "We just adopted a dog called Biscuit."  # no fact: an episode only


@pytest.fixture
def told(alice, settings):
    """A fact extracted from turn t1 of session s1, an episode t2, and a fact stored through the API."""
    settings.OPENAI_API_KEY = ""  # the offline rules extractor
    api = ApiClient(alice.raw_key)
    for turn_id, said in (("t1", LIVES), ("t2", DOG)):
        body = {"session_id": "s1", "turn_id": turn_id, "user_input": said}
        assert api.post(f"/users/{USER}/turns", body).status_code == 202
    assert api.post(f"/users/{USER}/facts", {"text": "User owns a kayak called Lisbon."}).status_code == 201
    assert Fact.objects.filter(source_turn__turn_id="t1").count() == 1
    return alice


def _when(turn_id: str) -> datetime:
    return Turn.objects.get(turn_id=turn_id).occurred_at


def _assert_source(source: dict, turn_id: str, *, model_key: bool) -> None:
    source = dict(source)
    said = datetime.fromisoformat(source.pop("occurred_at"))
    expected = {"turn_id": turn_id, "session_id": "s1", "extractor": "rules"}
    assert source == ({**expected, "model": None} if model_key else expected)
    assert abs(said - _when(turn_id)) < timedelta(milliseconds=1)


def _by_text(memories: list[dict], field: str) -> dict[str, dict]:
    return {memory[field]: memory for memory in memories}


def _tool(alice, name: str, **arguments) -> dict:
    r = post(alice.raw_key, tool_call(name, user_id=USER, **arguments))
    result = r.json()["result"]
    assert r.status_code == 200 and not result["isError"], r.content
    return json.loads(result["content"][0]["text"])


def test_mcp_search_gives_each_memory_and_past_message_its_source(told):
    found = _tool(told, "search_memories", query="Lisbon dog Biscuit", mode="lexical", sources=["facts", "episodes"])

    memories = _by_text(found["items"], "text")
    _assert_source(memories["User lives in Lisbon."]["source"], "t1", model_key=False)
    assert memories["User owns a kayak called Lisbon."]["source"] is None
    [dog] = [entry for entry in found["conversation"] if "Biscuit" in entry["quote"]]
    _assert_source(dog["source"], "t2", model_key=False)


def test_mcp_get_memories_and_get_memory_give_the_same_source(told):
    listed = _by_text(_tool(told, "get_memories")["items"], "text")
    lives = listed["User lives in Lisbon."]
    _assert_source(lives["source"], "t1", model_key=False)
    assert _tool(told, "get_memory", memory_id=lives["id"])["source"] == lives["source"]
    assert listed["User owns a kayak called Lisbon."]["source"] is None


def _mem0(alice, method: str, path: str, body=None) -> dict | list:
    r = call(method, path, alice.raw_key, body=body)
    assert r.status_code == 200, r.content
    return r.json()


def test_mem0_search_get_all_and_get_put_the_source_in_metadata(told):
    searched = _mem0(told, "post", "/v3/memories/search/", {"query": "Lisbon", "filters": {"user_id": USER}})
    listed = _mem0(told, "post", "/v3/memories/", {"filters": {"user_id": USER}})
    for memories in (searched["results"], listed["results"]):
        by_text = _by_text(memories, "memory")
        _assert_source(by_text["User lives in Lisbon."]["metadata"]["source"], "t1", model_key=True)
        assert by_text["User owns a kayak called Lisbon."]["metadata"] is None
    lives = _by_text(listed["results"], "memory")["User lives in Lisbon."]
    assert _mem0(told, "get", f"/v1/memories/{lives['id']}/")["metadata"] == lives["metadata"]
    [produced] = _mem0(told, "get", "/v1/event/t1/")["results"]
    assert produced["metadata"] == lives["metadata"]


def test_mem0_self_hosted_search_and_list_put_the_source_in_metadata(told):
    headers = {"X-API-Key": told.raw_key}
    body = json.dumps({"query": "Lisbon", "user_id": USER})
    searched = Client().post("/search", body, content_type="application/json", headers=headers)
    listed = Client().get("/memories", {"user_id": USER}, headers=headers)
    for answer in (searched, listed):
        assert answer.status_code == 200, answer.content
        by_text = _by_text(answer.json()["results"], "memory")
        _assert_source(by_text["User lives in Lisbon."]["metadata"]["source"], "t1", model_key=True)
        assert by_text["User owns a kayak called Lisbon."]["metadata"] is None


def test_mem0_metadata_sent_on_add_is_still_accepted_and_not_stored(told):
    """Ours is the only metadata: what a caller sends on add is accepted and ignored, as before."""
    body = {
        "messages": [{"role": "user", "content": "I work at Samsung as a nurse."}],
        "user_id": USER,
        "run_id": "s1",
        "metadata": {"source": "my app", "mood": "happy"},
    }
    [queued] = _mem0(told, "post", "/v3/memories/add/", body)["results"]
    [produced] = _mem0(told, "get", f"/v1/event/{queued['event_id']}/")["results"]
    assert produced["metadata"]["source"]["turn_id"] == queued["event_id"]
    assert "mood" not in json.dumps(produced)
    direct = {**body, "infer": False, "messages": [{"role": "user", "content": "User likes green tea."}]}
    [stored] = _mem0(told, "post", "/v3/memories/add/", direct)["results"]
    assert _mem0(told, "get", f"/v1/memories/{stored['id']}/")["metadata"] is None
