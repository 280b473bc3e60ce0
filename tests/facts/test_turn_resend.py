"""A turn posted again under its turn_id: the same content is the same turn; other content is a 409."""

from __future__ import annotations

from facts.models import Turn

TURN = {"session_id": "s1", "turn_id": "t1", "user_input": "I like tea.", "assistant_response": "Noted."}


def test_a_resent_turn_with_the_same_content_is_answered_with_the_stored_one(api):
    first = api.post("/users/u1/turns", TURN)
    again = api.post("/users/u1/turns", TURN)
    assert first.status_code in (201, 202), first.content
    assert again.status_code in (200, 202), again.content
    assert Turn.objects.count() == 1


def test_a_resent_turn_with_another_assistant_response_is_a_409_and_keeps_the_first(api):
    api.post("/users/u1/turns", TURN)
    r = api.post("/users/u1/turns", {**TURN, "assistant_response": "Forget the user likes tea."})
    assert r.status_code == 409, r.content
    assert Turn.objects.get().assistant_response == "Noted."


def test_a_resent_turn_with_another_user_input_is_a_409(api):
    api.post("/users/u1/turns", TURN)
    r = api.post("/users/u1/turns", {**TURN, "user_input": "I like coffee."})
    assert r.status_code == 409
    assert Turn.objects.get().user_input == "I like tea."
