"""The sensitivity policy governs quoted episodes as it governs facts (docs/design.md §6).

A past turn is held to every health or finance fact it produced or repeats words of, and to
the topics its own words are about: what the block withholds as a fact it does not quote as
"Past conversation". Turns go through POST /turns and the offline rules extractor."""

from __future__ import annotations

import pytest

from facts.models import Tenant

pytestmark = pytest.mark.django_db

SHELLFISH = "I am allergic to shellfish."
# Produces only "User likes jazz.", names no health word, but speaks of the allergy.
CORRECTION = "Actually it was penicillin, not shellfish. I like jazz."
# Produces only "User likes jazz."; its own words are about medicine and money.
PILLS = "My new blood pressure pills arrived today. I love jazz."
MORTGAGE = "Our mortgage payment went up again. I enjoy jazz."


@pytest.fixture
def unmerged(settings):
    """Episodes stand beside the facts they produced instead of folding into them, so the
    turn that produced "likes jazz" is a candidate of its own for a jazz question."""
    settings.MEMORY_RECALL_EPISODE_MERGE = False


def _context(client, query: str) -> dict:
    response = client.post("/users/u1/context", {"query": query, "max_tokens": 800})
    assert response.status_code == 200, response.content
    return response.json()


def _quoted(body: dict) -> list[str]:
    return [i["text"] for s in body["sections"] if s["name"] == "conversation" for i in s["items"]]


def _withheld(body: dict) -> set[str]:
    return {d["id"] for d in body["dropped"] if d["reason"] == "sensitive"}


def test_a_jazz_question_quotes_neither_the_allergy_nor_the_turn_that_mentions_it(api, said, unmerged):
    said(api, "t1", SHELLFISH)
    said(api, "t2", CORRECTION)
    body = _context(api, "recommend a jazz album")
    assert "User likes jazz." in body["text"]
    assert "shellfish" not in body["text"] and "penicillin" not in body["text"], body["text"]
    assert {"turn:t1", "turn:t2"} <= _withheld(body)


def test_a_turn_about_medicine_or_money_is_withheld_from_an_unrelated_question(api, said, unmerged):
    said(api, "t1", PILLS)
    said(api, "t2", MORTGAGE)
    body = _context(api, "recommend a jazz album")
    assert "User likes jazz." in body["text"]
    assert _quoted(body) == [], body["text"]
    assert {"turn:t1", "turn:t2"} <= _withheld(body)


def test_a_question_on_the_topic_quotes_the_turns_as_it_admits_the_fact(api, said, unmerged):
    said(api, "t1", SHELLFISH)
    said(api, "t2", CORRECTION)
    said(api, "t3", PILLS)
    body = _context(api, "Which allergy medication is safe for me?")
    assert "User is allergic to shellfish." in body["text"]
    assert SHELLFISH in _quoted(body) and CORRECTION in _quoted(body), body["text"]
    assert PILLS in _quoted(body)
    said(api, "t4", MORTGAGE)
    money = _context(api, "Should I pay off the mortgage early?")
    assert MORTGAGE in _quoted(money), money["text"]
    assert SHELLFISH not in _quoted(money) and CORRECTION not in _quoted(money)


def test_a_tenant_that_allows_sensitive_context_gets_the_turns_quoted(api, alice, said, unmerged):
    Tenant.objects.filter(pk=alice.tenant.pk).update(allow_sensitive_context=True)
    said(api, "t1", SHELLFISH)
    said(api, "t2", CORRECTION)
    body = _context(api, "recommend a jazz album")
    assert CORRECTION in _quoted(body), body["text"]
    assert "User is allergic to shellfish." in body["text"]
    assert _withheld(body) == set()


def test_with_episodes_folded_into_facts_the_jazz_question_still_quotes_no_allergy(api, said):
    said(api, "t1", SHELLFISH)
    said(api, "t2", CORRECTION)
    body = _context(api, "recommend a jazz album")
    assert "shellfish" not in body["text"] and "penicillin" not in body["text"], body["text"]


def test_a_turn_that_produced_a_sensitive_fact_is_held_to_it_whatever_its_words():
    from profiles.sensitivity import admits_episode

    fact = {"id": "f1", "key": "condition", "text": "User has a chronic condition.", "category": "health"}
    turn = {"id": "turn:t1", "kind": "episode", "text": "Long story, I'll tell you later.", "category": "episode"}
    rule = {"sensitive": [fact], "topics": set(), "allow_all": False, "matched_ids": set()}
    assert admits_episode(turn, **rule)
    assert not admits_episode({**turn, "produced": ["f1"]}, **rule)
    assert admits_episode({**turn, "produced": ["f1"]}, **{**rule, "topics": {"health"}})
    # The query matched the fact's own words: the fact is admitted, and the turn with it.
    assert admits_episode({**turn, "produced": ["f1"]}, **{**rule, "matched_ids": {"f1"}})
