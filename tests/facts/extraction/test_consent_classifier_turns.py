"""A turn whose request only the consent classifier reads (facts/consent_model.py, issue 37) is
withheld like one the rules read: no extractor call, no words kept. With the classifier off or
its model unavailable, the rules alone decide and the turn is never failed for it."""

from __future__ import annotations

from django.test import Client

from facts import consent, consent_model
from facts.models import Turn, TurnState
from recall.embeddings import EmbedderError
from tests.facts.extraction.conftest import add, reply

# The rules miss it (tests/facts/test_consent_model.py checks); the classifier reads it.
ASKED = "Please keep this out of my saved stuff, I'm applying to Quillstone in secret."


def test_a_request_only_the_classifier_reads_withholds_the_turn_before_any_extractor(turns, fake_llm, settings):
    settings.MEMORY_CONSENT_CLASSIFIER = True
    assert consent.detect(ASKED) is None
    answer = turns.post(ASKED, turn_id="t1", assistant_response="Good luck at Quillstone.")
    assert answer["remembered"] is False and answer["reason"] == "asked" and answer["forgot_previous"] is None
    assert len(fake_llm.requests) == 0
    turn = Turn.objects.get(turn_id="t1")
    assert turn.state == TurnState.WITHHELD and turn.user_input == "" and turn.assistant_response == ""


def test_a_pointer_back_only_the_classifier_reads_forgets_the_previous_turn(turns, fake_llm, settings):
    settings.MEMORY_CONSENT_CLASSIFIER = True
    fake_llm.script(reply(add=[add("User's landlord is Mr Quill.", "landlord")]))
    turns.post("My landlord is Mr Quill.", turn_id="t1")
    # ("..., lose it from memory please" is the rules' since the sixteenth set's fixes.)
    back = "The bit I told you earlier about my landlord, release it from memory please."
    assert consent.detect(back) is None
    answer = turns.post(back, turn_id="t2")
    assert answer["reason"] == "asked" and answer["forgot_previous"] == {"turn_id": "t1", "facts": 1}
    assert len(fake_llm.requests) == 1  # the first turn only


def test_with_the_classifier_off_the_same_turn_is_remembered(turns, fake_llm, settings):
    settings.MEMORY_CONSENT_CLASSIFIER = False
    fake_llm.script(reply())
    answer = turns.post(ASKED, turn_id="t1")
    assert answer["remembered"] is True and len(fake_llm.requests) == 1


def test_with_the_embedder_down_the_turn_is_remembered_on_the_rules_and_health_says_why(
    turns, fake_llm, settings, monkeypatch, alice
):
    settings.MEMORY_CONSENT_CLASSIFIER = True

    def broken(model):
        raise EmbedderError("no model here")

    monkeypatch.setattr(consent_model, "_embedder", broken)
    fake_llm.script(reply())
    answer = turns.post(ASKED, turn_id="t1")
    assert answer["remembered"] is True and len(fake_llm.requests) == 1
    # The rules still withhold what they read.
    assert turns.post("Off the record: I'm moving to Quillstone.", turn_id="t2")["reason"] == "asked"
    health = Client().get("/api/v1/health", HTTP_AUTHORIZATION=f"Bearer {alice.raw_key}").json()
    assert health["consent_classifier"]["enabled"] is True
    assert "no model here" in health["consent_classifier"]["last_error"]
