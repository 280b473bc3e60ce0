"""Consent per turn (issue 37): `remember: false`, a person asking in their own words, and
"forget what I just said". A withheld turn reaches no extractor (the scripted
OpenAI-compatible server counts the requests) and keeps no words, only its id and a digest."""

from __future__ import annotations

import json

from facts.models import Fact, FactHistory, HistoryAction, MemoryUser, Turn, TurnState
from tests.facts.extraction.conftest import add, reply


def _words_kept(marker: str) -> list[str]:
    """Every stored text column that holds `marker` (turns, facts, history), by table."""
    places = []
    if Turn.objects.filter(user_input__contains=marker).exists():
        places.append("turn.user_input")
    if Turn.objects.filter(assistant_response__contains=marker).exists():
        places.append("turn.assistant_response")
    if Fact.objects.filter(text__contains=marker).exists() or Fact.objects.filter(source_excerpt__contains=marker):
        places.append("fact")
    return places


def test_a_turn_posted_with_remember_false_reaches_no_extractor_and_keeps_no_words(turns, fake_llm):
    answer = turns.post(
        "I live in Zanzibarville now.", turn_id="t1", remember=False, assistant_response="Noted, Zanzibarville."
    )
    assert answer["remembered"] is False and answer["reason"] == "caller"
    assert answer["status"] == "withheld" and answer["forgot_previous"] is None
    assert len(fake_llm.requests) == 0
    turn = Turn.objects.get(turn_id="t1")
    assert turn.state == TurnState.WITHHELD and turn.user_input == "" and turn.assistant_response == ""
    assert len(turn.content_digest) == 64 and "Zanzibarville" not in turn.content_digest
    assert _words_kept("Zanzibarville") == []
    assert turns.get("t1")["status"] == "withheld"


def test_a_remembered_turn_still_goes_to_the_extractor(turns, fake_llm):
    fake_llm.script(reply(add=[add("User lives in Zanzibarville.", "home_city")]))
    answer = turns.post("I live in Zanzibarville now.", turn_id="t1")
    assert answer["remembered"] is True and answer["reason"] is None
    assert len(fake_llm.requests) == 1
    assert Fact.objects.filter(text="User lives in Zanzibarville.").exists()


def test_a_withheld_turn_resent_with_its_turn_id_is_the_same_turn_and_other_content_is_a_409(turns, fake_llm, api):
    turns.post("Off the record: my boss is leaving.", turn_id="t1", remember=False)
    again = turns.post("Off the record: my boss is leaving.", turn_id="t1", remember=False, expect=200)
    assert again["remembered"] is False and again["reason"] == "caller"
    other = api.post("/users/u1/turns", {"session_id": "s1", "turn_id": "t1", "user_input": "Something else."})
    assert other.status_code == 409, other.content
    assert Turn.objects.count() == 1 and len(fake_llm.requests) == 0


def test_remember_that_is_not_a_boolean_is_a_422_and_writes_nothing(api):
    for value in ("false", 0, None, "no"):
        r = api.post("/users/u1/turns", {"session_id": "s1", "user_input": "I like tea.", "remember": value})
        assert r.status_code == 422, (value, r.content)
        assert r.json()["errors"][0]["loc"][-1] == "remember"
    assert not MemoryUser.objects.exists() and not Turn.objects.exists()


def test_a_person_asking_off_the_record_is_withheld_with_reason_asked(turns, fake_llm):
    answer = turns.post("Off the record: I'm interviewing at Quillstone next week.", turn_id="t1")
    assert answer["remembered"] is False and answer["reason"] == "asked"
    assert len(fake_llm.requests) == 0
    assert _words_kept("Quillstone") == []


def test_forget_what_i_just_said_forgets_the_previous_turn_and_what_it_stored(turns, fake_llm):
    fake_llm.script(reply(add=[add("User's new job is at Quillstone.", "employer")]))
    turns.post("I got the job at Quillstone!", turn_id="t1")
    fact = Fact.objects.get(text="User's new job is at Quillstone.")
    answer = turns.post("Wait, forget what I just said.", turn_id="t2")
    assert answer["remembered"] is False and answer["reason"] == "asked"
    assert answer["forgot_previous"] == {"turn_id": "t1", "facts": 1}
    assert len(fake_llm.requests) == 1  # the first turn only
    assert not Fact.objects.filter(pk=fact.pk).exists()
    assert not Turn.objects.filter(turn_id="t1").exists()
    assert _words_kept("Quillstone") == []
    # Through the forget service: the audit keeps that it existed, without its words, and who.
    deleted = FactHistory.objects.get(fact_uuid=fact.uuid, action=HistoryAction.DELETE)
    assert deleted.actor_id == "consent" and "t2" in deleted.reason
    entries = FactHistory.objects.filter(fact_uuid=fact.uuid).values_list("before", "after")
    assert "Quillstone" not in json.dumps(list(entries))


def test_forget_what_i_just_said_touches_only_its_own_session(turns, fake_llm):
    fake_llm.script(reply(add=[add("User likes tea.", "drink")]), reply(add=[add("User has a cat named Mo.", "pet")]))
    turns.post("I like tea.", turn_id="t1", session_id="a")
    turns.post("My cat is called Mo.", turn_id="t2", session_id="b")
    answer = turns.post("Forget what I just said.", turn_id="t3", session_id="a")
    assert answer["forgot_previous"] == {"turn_id": "t1", "facts": 1}
    assert list(Fact.objects.values_list("text", flat=True)) == ["User has a cat named Mo."]


def test_forget_what_i_just_said_removes_a_previous_turn_that_stored_nothing_yet(turns, fake_llm, api):
    # The previous turn is still queued (not extracted): it goes, and so does its later extraction.
    r = api.post("/users/u1/turns", {"session_id": "s1", "turn_id": "t1", "user_input": "I live in Quillstone."})
    assert r.status_code == 202
    answer = turns.post("Please forget what I just said.", turn_id="t2")
    assert answer["forgot_previous"] == {"turn_id": "t1", "facts": 0}
    assert not Turn.objects.filter(turn_id="t1").exists()
    assert len(fake_llm.requests) == 0 and _words_kept("Quillstone") == []


def test_a_resent_forget_request_forgets_nothing_more(turns, fake_llm):
    fake_llm.script(reply(add=[add("User likes tea.", "drink")]), reply(add=[add("User likes jazz.", "music")]))
    turns.post("I like tea.", turn_id="t1")
    turns.post("Forget what I just said.", turn_id="t2")
    turns.post("I like jazz.", turn_id="t3")
    turns.post("Forget what I just said.", turn_id="t2", expect=200)
    assert list(Fact.objects.values_list("text", flat=True)) == ["User likes jazz."]
