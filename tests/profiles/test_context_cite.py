"""`cite: true` on POST /users/{id}/context (docs/api.md): each item line starts with `[n]`, and
`citations` maps every n to its fact and the turn it was said in. Off, the block is as before."""

from __future__ import annotations

import re

import pytest

from facts.models import Fact, Turn, TurnState
from tests.profiles.helpers import user_of

pytestmark = pytest.mark.django_db

NUMBERED = re.compile(r"^\[(\d+)\] (.*)$", flags=re.MULTILINE)


def _user_with_facts(alice, store):
    user = user_of(alice)
    store(user, "User never eats pork.", "hard_preference", "diet")
    lisbon = store(user, "User lives in Lisbon.", "identity", "home_city")
    store(user, "User prefers dark themes in their editor.", "soft_preference")
    store(user, "User is migrating the billing service to Postgres.", "task_context")
    turn = Turn.objects.create(
        tenant=alice.tenant,
        user=user,
        session_id="s1",
        turn_id="t9",
        user_input="I live in Lisbon.",
        state=TurnState.DONE,
    )
    Fact.objects.filter(pk=lisbon.pk).update(source_turn=turn)
    return user


def _context(api, **body) -> dict:
    response = api.post("/users/u1/context", {"max_tokens": 500, **body})
    assert response.status_code == 200, response.content
    return response.json()


def test_cited_lines_are_numbered_in_order_and_match_the_citations(api, alice, store):
    _user_with_facts(alice, store)
    body = _context(api, cite=True)

    lines = NUMBERED.findall(body["text"])
    assert [int(n) for n, _ in lines] == list(range(1, 5)), body["text"]
    assert [c["n"] for c in body["citations"]] == [1, 2, 3, 4]
    for (_, line), citation in zip(lines, body["citations"], strict=True):
        fact = Fact.objects.get(uuid=citation["fact_id"])
        assert line == fact.text
        assert citation["turn_id"] == (fact.source_turn.turn_id if fact.source_turn else None)
    assert {c["turn_id"] for c in body["citations"]} == {"t9", None}
    # The citations follow the sections' items, in the order the answer lists them.
    assert [c["fact_id"] for c in body["citations"]] == [i["id"] for s in body["sections"] for i in s["items"]]


def test_without_cite_the_block_has_no_numbers_and_no_citations(api, alice, store):
    _user_with_facts(alice, store)
    plain = _context(api)
    cited = _context(api, cite=True)

    assert plain["citations"] is None and not NUMBERED.search(plain["text"])
    assert re.sub(r"^\[\d+\] ", "- ", cited["text"], flags=re.MULTILINE) == plain["text"]


def test_a_cited_block_stays_within_its_budget(api, alice, store):
    _user_with_facts(alice, store)
    for budget in (8, 12, 16, 20, 24, 32, 48):
        body = _context(api, cite=True, max_tokens=budget)
        assert body["tokens"] <= budget
        assert len(NUMBERED.findall(body["text"])) == len(body["citations"])


def test_cite_must_be_a_json_boolean(api, alice, store):
    _user_with_facts(alice, store)
    assert api.post("/users/u1/context", {"max_tokens": 100, "cite": "yes"}).status_code == 422


def test_a_quoted_past_turn_is_cited_by_its_turn_and_no_fact(api, settings, django_capture_on_commit_callbacks):
    settings.OPENAI_API_KEY = ""  # the offline rules extractor
    body = {"session_id": "s1", "turn_id": "t1", "user_input": "We just adopted a dog called Biscuit."}
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post("/users/u1/turns", body).status_code in (200, 202)

    answer = _context(api, cite=True, query="what is my dog called? Biscuit")

    [conversation] = [s for s in answer["sections"] if s["name"] == "conversation"]
    [quoted] = conversation["items"]
    lines = dict(NUMBERED.findall(answer["text"]))
    [citation] = [c for c in answer["citations"] if c["turn_id"] == "t1" and c["fact_id"] is None]
    assert quoted["id"] == "turn:t1" and "Biscuit" in lines[str(citation["n"])]
