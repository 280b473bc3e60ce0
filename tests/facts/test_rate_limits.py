"""Per-key rate limits: 429 with Retry-After and a JSON detail; a refused request writes nothing."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings

from core.ratelimit import Rate, parse_rate
from facts.models import Fact, MemoryUser, Turn
from tests.base import ApiClient, issue_key

# A day-long window: the test cannot straddle a reset (except at midnight UTC).
TWO_WRITES = override_settings(MEMORY_RATE_LIMIT_WRITE="2/day")


def _fill_write_window(api):
    for n in range(2):
        assert api.post("/users/u1/facts", {"text": f"User owns {n + 2} bikes."}).status_code == 201


def _assert_refused(r):
    assert r.status_code == 429, r.content
    assert 1 <= int(r["Retry-After"]) <= 86400
    assert "Rate limit" in r.json()["detail"]


@TWO_WRITES
def test_a_refused_fact_post_answers_429_and_stores_nothing(api):
    _fill_write_window(api)
    facts, users = Fact.objects.count(), MemoryUser.objects.count()
    r = api.post("/users/u2/facts", {"text": "User likes tea."})
    _assert_refused(r)
    assert Fact.objects.count() == facts
    assert MemoryUser.objects.count() == users


@TWO_WRITES
def test_a_refused_turn_post_answers_429_and_stores_nothing(api):
    _fill_write_window(api)
    turns, users = Turn.objects.count(), MemoryUser.objects.count()
    r = api.post("/users/u3/turns", {"session_id": "s1", "user_input": "I like tea."})
    _assert_refused(r)
    assert Turn.objects.count() == turns
    assert MemoryUser.objects.count() == users


@TWO_WRITES
def test_reads_and_other_keys_have_their_own_counts(api, alice):
    _fill_write_window(api)
    assert api.get("/users/u1/facts").status_code == 200
    assert (
        ApiClient(issue_key(alice.tenant, ["write"])).post("/users/u1/facts", {"text": "User likes tea."}).status_code
        == 201
    )


@override_settings(MEMORY_RATE_LIMIT_RECALL="1/day")
def test_recall_is_its_own_class(api):
    assert api.post("/users/u1/facts", {"text": "User owns a bike."}).status_code == 201
    assert api.post("/users/u1/recall", {"query": "bikes"}).status_code == 200
    _assert_refused(api.post("/users/u1/recall", {"query": "bikes"}))
    assert api.post("/users/u1/facts", {"text": "User owns a red bike."}).status_code == 201


@override_settings(MEMORY_RATE_LIMIT_WRITE="off")
def test_off_turns_a_class_off(api):
    for n in range(3):
        assert api.post("/users/u1/facts", {"text": f"User owns {n + 2} cars."}).status_code == 201


def test_rates_parse_and_bad_ones_are_refused():
    assert parse_rate("600/min") == Rate(600, 60)
    assert parse_rate(" 5 / hour ") == Rate(5, 3600)
    assert parse_rate("off") is None
    for bad in ("600", "0/min", "10/fortnight", "-1/sec"):
        with pytest.raises(ImproperlyConfigured):
            parse_rate(bad)
