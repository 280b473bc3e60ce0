"""`citations` of a cited context block (docs/api.md) carry the session and time of each line's turn
beside its id, so a caller shows "said on ..." without a second request: a fact's source turn, a
quoted turn's own; nulls for a fact no turn stated."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from facts.models import Turn
from tests.profiles.test_context_cite import _context, _user_with_facts

pytestmark = pytest.mark.django_db


def _said(citation: dict) -> datetime:
    return datetime.fromisoformat(citation["occurred_at"])


def test_a_cited_fact_carries_its_turns_session_and_time(api, alice, store):
    _user_with_facts(alice, store)  # "User lives in Lisbon." said in turn t9 of session s1; the others in none
    citations = _context(api, cite=True)["citations"]

    [lisbon] = [c for c in citations if c["turn_id"] == "t9"]
    assert lisbon["session_id"] == "s1"
    assert abs(_said(lisbon) - Turn.objects.get(turn_id="t9").occurred_at) < timedelta(milliseconds=1)
    others = [c for c in citations if c is not lisbon]
    assert len(others) == 3
    assert all(c["turn_id"] is None and c["session_id"] is None and c["occurred_at"] is None for c in others)


def test_a_cited_quoted_turn_carries_its_session_and_time(api, settings, django_capture_on_commit_callbacks):
    settings.OPENAI_API_KEY = ""  # the offline rules extractor
    body = {"session_id": "s7", "turn_id": "t1", "user_input": "We just adopted a dog called Biscuit."}
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post("/users/u1/turns", body).status_code in (200, 202)

    citations = _context(api, cite=True, query="what is my dog called? Biscuit")["citations"]

    [quoted] = [c for c in citations if c["fact_id"] is None]
    assert (quoted["turn_id"], quoted["session_id"]) == ("t1", "s7")
    assert abs(_said(quoted) - Turn.objects.get(turn_id="t1").occurred_at) < timedelta(milliseconds=1)
