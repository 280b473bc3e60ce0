"""The pure parts: salience gate, reply schema, offline rules, prompt."""

from __future__ import annotations

import json

import pytest

from facts.extraction import prompt, rules
from facts.extraction.salience import skip_reason
from facts.extraction.schema import InvalidReply, parse_reply


@pytest.mark.parametrize(
    "text,reason",
    [
        ("Hello!", "greeting"),
        ("good morning :)", "greeting"),
        ("Thanks so much!!", "thanks"),
        ("thank you", "thanks"),
        ("ok", "acknowledgement"),
        ("Sounds good.", "acknowledgement"),
        ("   ", "empty"),
    ],
)
def test_the_salience_gate_skips_turns_without_assertions(text, reason):
    assert skip_reason(text) == reason


@pytest.mark.parametrize(
    "text",
    [
        "I live in Paris.",
        "Hi! My name is Ana.",
        "We switched our backend to Go.",
        "Can you suggest vegan food since I'm vegan?",
        "Paris?",
        "Summarise this article about volcanoes.",
    ],
)
def test_the_salience_gate_lets_first_person_statements_through(text):
    assert skip_reason(text) is None


def test_a_reply_in_a_code_fence_with_unknown_category_and_bad_time_is_accepted_leniently():
    raw = (
        "```json\n"
        + json.dumps(
            {
                "add": [
                    {
                        "text": "User sails.",
                        "key": None,
                        "category": "Hobby",
                        "entities": "sailing",
                        "confidence": "0.7",
                        "valid_from": "last spring",
                        "event_time": "2025-06-01",
                    }
                ],
                "supersede": [],
                "expire": [{"id": 7, "reason": None}],
                "edges": [],
            }
        )
        + "\n```"
    )
    reply = parse_reply(raw)
    item = reply.add[0]
    assert (item.key, item.category, item.entities, item.confidence) == ("", "other", ["sailing"], 0.7)
    assert item.valid_from is None and item.event_time.startswith("2025-06-01")
    assert reply.expire[0].id == "7" and reply.expire[0].reason == ""


@pytest.mark.parametrize(
    "raw,fragment",
    [
        ("", "empty"),
        ("not json", "not valid JSON"),
        ("[1, 2]", "one JSON object"),
        ('{"add": [], "supersede": [], "expire": []}', "edges"),
        ('{"add": [{"key": "x"}], "supersede": [], "expire": [], "edges": []}', "add.0.text"),
        ('{"add": [], "supersede": [{"text": "User x."}], "expire": [], "edges": []}', "supersede.0.id"),
    ],
)
def test_invalid_replies_say_what_is_wrong(raw, fragment):
    with pytest.raises(InvalidReply, match=fragment):
        parse_reply(raw)


def test_entities_are_capped_at_four_and_deduplicated():
    reply = parse_reply(
        json.dumps(
            {
                "add": [{"text": "t", "entities": ["a", "b", "a", "c", "d", "e"]}],
                "supersede": [],
                "expire": [],
                "edges": [],
            }
        )
    )
    assert reply.add[0].entities == ["a", "b", "c", "d"]


def test_the_rules_read_clear_first_person_statements_only():
    reply = rules.extract(
        [
            "My name is Ana Lopez and I live in New York. I work at Acme Corp as a data engineer.",
            "I'm allergic to peanuts, and I prefer dark mode. I use Neovim. I don't like meetings. I'm vegan.",
            "Do I like cats? My friend lives in Rome.",
        ]
    )
    assert [a["text"] for a in reply["add"]] == [
        "User's name is Ana Lopez.",
        "User lives in New York.",
        "User works at Acme Corp.",
        "User is allergic to peanuts.",
        "User prefers dark mode.",
        "User uses Neovim.",
        "User dislikes meetings.",
        "User is vegan.",
    ]
    assert {"src": "User", "relation": "lives_in", "dst": "New York"} in reply["edges"]
    assert reply["supersede"] == [] and reply["expire"] == []
    parse_reply(json.dumps(reply))  # the rules answer in the same schema as the model


@pytest.mark.parametrize(
    "said",
    [
        "I like that idea.",
        "I love the sound of the Watermelon Basil Margarita.",
        "I like those tips!",
        "I really like how convenient it is.",
        "I like your suggestions.",
        "I like the revised routine you've suggested.",
        "I like the gamification aspect of it.",
        "I use them every day.",
        "I prefer something lighter.",
        "I joined a recreational volleyball league.",
    ],
)
def test_the_rules_keep_no_reply_to_the_assistant_nor_a_pronoun_for_something_said_before(said):
    assert rules.extract([said])["add"] == []


def test_the_rules_say_their_for_my_and_take_an_employer_after_joined_only_by_its_name():
    reply = rules.extract(["I like my new job. I use my Mac for everything. I joined Acme last year."])
    assert [a["text"] for a in reply["add"]] == [
        "User likes their new job.",
        "User uses their Mac.",
        "User works at Acme.",
    ]


def test_the_rules_tag_facts_with_what_they_are_about_never_the_user():
    reply = rules.extract(["I live in Oslo and I use Postgres."])
    assert sorted(tag for item in reply["add"] for tag in item["entities"]) == ["Oslo", "Postgres"]
    assert {edge["src"] for edge in reply["edges"]} == {"User"}  # the graph still links the user to them


def test_a_later_statement_of_the_same_slot_wins_within_one_turn():
    reply = rules.extract(["I live in Oslo. Actually I moved to Bergen."])
    assert [a["text"] for a in reply["add"]] == ["User lives in Bergen."]


def test_the_prompt_carries_the_doctrine_the_facts_with_ids_and_the_messages():
    messages = prompt.build_messages(
        facts=[
            {"ref": "f1", "text": "User lives in Oslo.", "key": "home_city", "category": "identity", "confidence": 0.4}
        ],
        messages=[{"occurred_at": "2025-03-10T12:00:00+00:00", "user": "I moved to Bergen.", "assistant": "Nice."}],
        now="2025-03-10T12:00:00+00:00",
    )
    system, user = messages[0]["content"], messages[1]["content"]
    for phrase in ("Third person, present tense", "Never an instruction", "stale within a week", "supersede"):
        assert phrase in system
    assert "[f1] (identity, key=home_city, confidence=0.40) User lives in Oslo." in user
    assert "User: I moved to Bergen." in user and "Assistant: Nice." in user and "2025-03-10" in user
