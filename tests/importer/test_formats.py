"""Reading exports into turns: the thread the person saw, in order, with its original times."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

import jsonschema_rs
import pytest

from importer.formats import SCHEMAS, BadExport, from_data, read
from tests.importer.exports import T0, chatgpt_export, claude_export, jsonl_export

# Files into turns, no store: run once, in the SQLite run.
pytestmark = pytest.mark.no_database


def test_a_chatgpt_export_gives_the_final_thread_paired_with_the_answers():
    turns = read("chatgpt", chatgpt_export())

    assert [t.user_input for t in turns] == [
        "I just moved to Lisbon with my dog Biscuit.",
        "I work as a nurse.",
        "I am allergic to peanuts.",
    ]
    assert turns[0].assistant_response == "Welcome to Lisbon!"  # the tool message is left out
    assert turns[0].session_id == "chatgpt-c-1" and turns[0].turn_id == "chatgpt-m-n1"
    assert turns[0].occurred_at == datetime.fromtimestamp(T0 + 60, UTC)
    # A message without a time takes its conversation's.
    assert turns[2].occurred_at == datetime.fromtimestamp(T0 + 86400, UTC)


def test_a_claude_export_pairs_human_and_assistant_and_reads_text_or_content():
    turns = read("claude", claude_export())

    assert [(t.user_input, t.assistant_response) for t in turns] == [
        ("I grow tomatoes on my balcony.", "Lovely."),
        ("My sister Ana visits in June.", ""),
    ]
    assert turns[1].turn_id == "claude-msg-3" and turns[1].session_id == "claude-conv-1"
    assert turns[1].occurred_at == datetime(2024, 5, 2, 10, 3, tzinfo=UTC)


def test_jsonl_lines_without_ids_get_the_same_ids_every_time():
    first, again = read("jsonl", jsonl_export()), read("jsonl", jsonl_export())

    assert [t.turn_id for t in first] == [t.turn_id for t in again]
    assert len({t.turn_id for t in first}) == 3
    assert first[0].occurred_at == datetime(2023, 7, 1, 8, tzinfo=UTC)


@pytest.mark.parametrize(
    ("kind", "text", "says"),
    [
        ("chatgpt", "{not json", "not JSON"),
        ("chatgpt", '{"mapping": {}}', "is a JSON list"),
        ("chatgpt", '[{"title": "x"}]', "no 'mapping'"),
        ("claude", '[{"uuid": "x"}]', "no 'chat_messages'"),
        ("jsonl", '{"user_input": "a"}\n[1, 2]\n', "Item 1 is a list"),
        ("jsonl", '{"user_input": "a"}\n{oops\n', "Line 2 is not JSON"),
        ("jsonl", '{"user_input": 5}\n', "are text"),
        ("turns", '[{"assistant_response": "hi"}]', "user_input is required"),
        ("csv", "a,b", "Unknown format"),
    ],
)
def test_a_file_that_is_not_such_an_export_says_where_and_why(kind, text, says):
    with pytest.raises(BadExport, match=says):
        read(kind, text)


def test_inside_an_export_what_cannot_be_read_is_left_out_not_refused():
    export = [
        {
            "created_at": "2024-05-02T10:00:00Z",
            "chat_messages": [
                "not a message",
                {"sender": "human", "text": "I play the cello.", "created_at": "yesterday"},
                {"sender": "robot", "text": "beep"},
            ],
        }
    ]

    [turn] = from_data("claude", export)

    assert turn.user_input == "I play the cello."
    assert turn.occurred_at == datetime(2024, 5, 2, 10, tzinfo=UTC)  # the conversation's time


def test_a_turn_with_a_time_no_one_can_read_is_kept_to_be_refused_alone():
    [turn] = read("turns", json.dumps([{"user_input": "hi", "occurred_at": "last spring"}]))

    assert turn.refusal and "last spring" in turn.refusal


def _random_value(rng: random.Random, depth: int = 0):
    kinds = ["str", "int", "none", "list", "dict"] if depth < 4 else ["str", "int", "none"]
    kind = rng.choice(kinds)
    if kind == "str":
        return rng.choice(["", "user", "assistant", "human", "hi there", "2024-01-01T00:00:00Z", "n1"])
    if kind == "int":
        return rng.randint(-5, 10**10)
    if kind == "none":
        return None
    if kind == "list":
        return [_random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    keys = ["mapping", "parent", "children", "message", "author", "role", "content", "parts", "create_time"]
    keys += ["current_node", "chat_messages", "sender", "text", "created_at", "uuid", "user_input", "turn_id"]
    return {rng.choice(keys): _random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))}


@pytest.mark.parametrize("kind", sorted(SCHEMAS))
def test_the_reader_refuses_exactly_what_the_api_schema_calls_invalid(kind):
    rng = random.Random(kind)
    outcomes = []
    for _ in range(3000):
        document = (
            [_random_value(rng, 1) for _ in range(rng.randint(0, 3))] if rng.random() < 0.9 else _random_value(rng)
        )
        try:
            from_data(kind, document)
            accepted = True
        except BadExport:
            accepted = False
        assert accepted == jsonschema_rs.is_valid(SCHEMAS[kind], document), document
        outcomes.append(accepted)
    assert outcomes.count(True) > 100 and outcomes.count(False) > 100  # both sides were tried
