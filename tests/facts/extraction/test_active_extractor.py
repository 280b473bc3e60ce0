"""The answer to a posted turn names the active extractor without reading the newest extracted
turn on every POST (on PostgreSQL that read is planned on every partition of the turns)."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from facts.extraction import status
from tests.facts.extraction.conftest import reply

NEWEST_EXTRACTED = 'NOT ("facts_turn"."extractor" = '


def _reads_of_the_newest_turn(captured: CaptureQueriesContext) -> int:
    return sum(NEWEST_EXTRACTED in q["sql"] for q in captured.captured_queries)


def test_posted_turns_reuse_the_active_extractor_for_a_few_seconds_then_read_it_again(turns, fake_llm, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(status, "_clock", lambda: clock[0])
    fake_llm.script(reply(), reply(), reply())
    with CaptureQueriesContext(connection) as first:
        assert turns.post("I like sailing.", turn_id="t1")["extractor"] == "llm"
    with CaptureQueriesContext(connection) as soon_after:
        assert turns.post("I like rowing.", turn_id="t2")["extractor"] == "llm"
    clock[0] += status.ACTIVE_FOR_SECONDS
    with CaptureQueriesContext(connection) as later:
        assert turns.post("I like diving.", turn_id="t3")["extractor"] == "llm"
    assert [_reads_of_the_newest_turn(c) for c in (first, soon_after, later)] == [1, 0, 1]


def test_the_health_route_reads_the_extractor_afresh_every_time(turns, fake_llm, api, settings):
    fake_llm.script(reply())
    turns.post("I like sailing.", turn_id="t1")
    assert api.get("/health").json()["extractor"]["active"] == "llm"
    # The workers now run the offline rules (their newest extracted turn says so): health sees it
    # at once, while this process's answers to posted turns may say "llm" a few seconds more.
    settings.OPENAI_API_KEY = ""
    turns.post("My name is Ana.", turn_id="t2")
    assert api.get("/health").json()["extractor"]["active"] == "rules"
    assert status.active_extractor() == "llm"
