"""Dates at the ends of the calendar never end in a 500 (issue 33, item 5).

A query naming 0001-01-01 or 9999-12-31, an `as_of` at either end with a relative time, and a
fact valid from 0001-01-01 read back by "on 1 January": every door answers 200 (or a clear 4xx)
instead of an OverflowError. Through each door's own route, in process: REST recall, the context
block, mem0's search and MCP's search_memories.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

QUERIES = [
    "what happened on 0001-01-01",
    "what happened on 9999-12-31",
    "what happened on 1 January",  # the fact valid from 0001-01-01 is in the day's slack
]
# (as_of, query): a relative time counted from either end of the calendar.
AS_OF_QUERIES = [
    ("9999-12-31T23:59:59Z", "what did I say today"),
    ("9999-12-31T23:59:59Z", "what happened this year"),
    ("9999-12-31T12:00:00Z", "this week and this month"),
    ("0001-01-01T00:00:00Z", "what did I say yesterday"),
    ("0001-01-01T00:00:00Z", "last week, last month or last year"),
]


@pytest.fixture
def stored(api, model, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        r = api.post("/users/u1/facts", {"text": "User was born on 1 January.", "valid_from": "0001-01-01T00:00:00Z"})
        assert r.status_code == 201, r.content
        r = api.post(
            "/users/u1/facts", {"text": "User plans a party on 31 December.", "valid_from": "9999-12-31T00:00:00Z"}
        )
        assert r.status_code == 201, r.content
        r = api.post("/users/u1/turns", {"session_id": "s1", "user_input": "I was born on 1 January."})
        assert r.status_code in (201, 202), r.content
    return r


def _ok(r) -> dict:
    assert r.status_code == 200, r.content
    return r.json()


@pytest.mark.parametrize("query", QUERIES)
def test_rest_recall_answers_dates_at_the_ends_of_the_calendar(api, stored, query):
    body = _ok(api.post("/users/u1/recall", {"query": query, "sources": ["facts", "episodes"]}))
    assert body["mode"] == "hybrid"


@pytest.mark.parametrize(("as_of", "query"), AS_OF_QUERIES)
def test_rest_recall_counts_relative_times_from_an_as_of_at_the_ends(api, stored, as_of, query):
    _ok(api.post("/users/u1/recall", {"query": query, "as_of": as_of, "sources": ["facts", "episodes"]}))


def _from_the_time_named(body: dict) -> list[str]:
    return [item["fact"]["text"] for item in body["items"] if "time_rank" in item["signals"]]


def test_a_fact_valid_from_the_first_day_is_found_on_1_january(api, stored):
    body = _ok(api.post("/users/u1/recall", {"query": "what happened on 1 January"}))
    assert _from_the_time_named(body) == ["User was born on 1 January."]


def test_the_window_of_the_first_and_last_day_stays_inside_the_calendar(api, stored):
    body = _ok(api.post("/users/u1/recall", {"query": "0001-01-01"}))
    assert _from_the_time_named(body) == ["User was born on 1 January."]
    body = _ok(api.post("/users/u1/recall", {"query": "9999-12-31"}))
    assert _from_the_time_named(body) == ["User plans a party on 31 December."]


@pytest.mark.parametrize("query", QUERIES)
def test_the_context_block_answers_dates_at_the_ends(api, stored, query):
    assert _ok(api.post("/users/u1/context", {"query": query, "max_tokens": 500}))["text"]


@pytest.mark.parametrize("query", QUERIES)
def test_mem0_search_answers_dates_at_the_ends(alice, stored, query):
    r = Client().post(
        "/v3/memories/search/",
        data=json.dumps({"query": query, "filters": {"user_id": "u1"}}),
        content_type="application/json",
        headers={"Authorization": f"Token {alice.raw_key}"},
    )
    assert r.status_code == 200, r.content


def _mcp_search(key: str, **arguments) -> dict:
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "search_memories", "arguments": arguments},
    }
    r = Client().post(
        "/mcp",
        data=json.dumps(message),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}", "Accept": "application/json, text/event-stream"},
    )
    assert r.status_code == 200, r.content
    return r.json()["result"]


@pytest.mark.parametrize("query", QUERIES)
def test_mcp_search_answers_dates_at_the_ends(alice, stored, query):
    result = _mcp_search(alice.raw_key, user_id="u1", query=query)
    assert not result["isError"], result


@pytest.mark.parametrize(("as_of", "query"), AS_OF_QUERIES)
def test_mcp_search_counts_relative_times_from_an_as_of_at_the_ends(alice, stored, as_of, query):
    result = _mcp_search(alice.raw_key, user_id="u1", query=query, as_of=as_of)
    assert not result["isError"], result
