"""The salience gate through the turn API: only turns that carry nothing skip the LLM."""

from __future__ import annotations

import pytest
from django.test import override_settings

from facts.extraction.salience import skip_reason
from facts.models import Fact
from tests.facts.extraction.conftest import add, reply

# Plain information without "I": a trip described, a question answered, a plan made.
INFORMATIVE = [
    "It was lovely - mountain air, total quiet and a little log cabin by the lake.",
    "Yes, loads of them, like sleeping better and no more afternoon slumps after lunch.",
    "let's go pottery shopping next Sunday morning",
    "Sam: Adopted two kittens last week, Pip and Moss.",
    "Paris.",
    "Summarise this article about volcanoes.",
]


@pytest.mark.parametrize("text", INFORMATIVE)
def test_a_turn_with_information_but_no_first_person_reaches_the_extractor(turns, fake_llm, text):
    fake_llm.script(reply(add=[add("User plans a pottery trip.", "plan")]))
    turns.post(text, turn_id="t1")
    state = turns.get("t1")
    assert state["status"] == "done", state
    assert len(fake_llm.requests) == 1
    assert text in fake_llm.user_prompts()[0]
    assert Fact.objects.live().count() == 1


@pytest.mark.parametrize(
    "text,reason",
    [
        ("Hey there, good morning!", "greeting"),
        ("Thank you so much, Sam!", "thanks"),
        ("ok!", "acknowledgement"),
        ("haha that's great!", "reaction"),
        ("Bye Sam! Take care, talk soon.", "greeting"),
    ],
)
def test_a_turn_that_carries_nothing_is_skipped_with_no_llm_call(turns, fake_llm, text, reason):
    turns.post(text, turn_id="t1")
    state = turns.get("t1")
    assert state["status"] == "skipped", state
    assert state["outcome"]["reason"] == f"skipped: {reason}"
    assert fake_llm.requests == []


def test_with_the_gate_off_a_greeting_goes_to_the_extractor(turns, fake_llm):
    fake_llm.script(reply())
    with override_settings(MEMORY_SALIENCE_GATE=False):
        turns.post("Hello!", turn_id="t1")
    assert turns.get("t1")["status"] == "done"
    assert len(fake_llm.requests) == 1


@pytest.mark.parametrize(
    "text,reason",
    [
        ("wow!", "reaction"),
        ("so cool", "reaction"),
        ("Mia: Thanks, Sam!", "thanks"),
        ("\U0001f44d\U0001f44d", "empty"),
        ("Sure, sounds good.", "acknowledgement"),
    ],
)
def test_small_talk_gets_the_kind_it_is_as_reason(text, reason):
    assert skip_reason(text) == reason


@pytest.mark.parametrize(
    "text",
    [
        "Wow, Sam and Ana got married!",  # names and news, not someone addressed
        "Great, the new job starts Monday.",
        "thanks, the vet says the dog is fine now",
        "ok " * 30,  # long: always to the extractor
    ],
)
def test_small_talk_words_around_information_do_not_skip_the_turn(text):
    assert skip_reason(text) is None
