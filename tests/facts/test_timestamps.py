"""Date-times in: no offset means UTC; what overflows in UTC is a 422, never a 500."""

from __future__ import annotations

import base64
import json

import pytest

from facts.models import Fact, MemoryUser, Turn

OVERFLOWING = ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-12:00"]


def test_a_same_key_fact_without_an_offset_supersedes_read_as_utc(api):
    assert api.post("/users/u1/facts", {"text": "User works at Acme.", "key": "employer"}).status_code == 201
    r = api.post(
        "/users/u1/facts", {"text": "User works at Globex.", "key": "employer", "valid_from": "2020-01-01T00:00:00"}
    )
    assert r.status_code == 201, r.content
    assert r.json()["valid_from"].startswith("2020-01-01T00:00:00")
    live = Fact.objects.live().get(key="employer")
    assert live.text == "User works at Globex." and live.valid_from.utcoffset().total_seconds() == 0


@pytest.mark.parametrize("field", ["valid_from", "event_time"])
@pytest.mark.parametrize("value", OVERFLOWING)
def test_a_fact_time_that_overflows_in_utc_is_422_and_writes_nothing(api, field, value):
    r = api.post("/users/u1/facts", {"text": "User works at Acme.", field: value})
    assert r.status_code == 422, r.content
    assert "out of range" in r.content.decode()
    assert Fact.objects.count() == 0 and MemoryUser.objects.count() == 0


@pytest.mark.parametrize("value", OVERFLOWING)
def test_a_turn_time_that_overflows_in_utc_is_422_and_writes_nothing(api, value):
    r = api.post("/users/u1/turns", {"session_id": "s1", "user_input": "I like tea.", "occurred_at": value})
    assert r.status_code == 422, r.content
    assert Turn.objects.count() == 0


@pytest.mark.parametrize("value", OVERFLOWING)
def test_a_recall_as_of_that_overflows_in_utc_is_422(api, value):
    api.post("/users/u1/facts", {"text": "User lives in Berlin."})
    r = api.post("/users/u1/recall", {"query": "Berlin", "as_of": value})
    assert r.status_code == 422, r.content


@pytest.mark.parametrize("value", ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2020-06-01T12:00:00"])
def test_a_recall_as_of_at_the_edges_of_the_calendar_answers(api, value):
    api.post("/users/u1/facts", {"text": "User lives in Berlin."})
    r = api.post("/users/u1/recall", {"query": "Berlin", "as_of": value})
    assert r.status_code == 200, r.content


def test_a_cursor_of_the_old_base64_form_is_422_naming_the_cursor(api):
    # A cursor is "<microseconds>_<row id>" (the schema states it; one whose numbers overflow
    # pages from the top, tests/facts/test_list_facts.py). The old base64 JSON form, with a
    # number that overflowed a float, is not of that form at all.
    api.post("/users/u1/facts", {"text": "User is vegan."})
    raw = b'["2020-01-01T00:00:00+00:00", 1e400]'
    cursor = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    assert json.loads(raw)[1] == float("inf")
    r = api.get("/users/u1/facts", cursor=cursor)
    assert r.status_code == 422 and "cursor" in r.json()["detail"]
