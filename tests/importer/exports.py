"""Small exports in each format's published shape, made here for the tests."""

from __future__ import annotations

import json

# 2024-03-01 09:00:00 UTC and minutes after it.
T0 = 1709283600.0


def _node(node_id, role, text, parent, children, at=None, parts=None):
    message = None
    if role:
        message = {
            "id": f"m-{node_id}",
            "author": {"role": role, "name": None, "metadata": {}},
            "create_time": at,
            "content": {"content_type": "text", "parts": parts if parts is not None else [text]},
            "metadata": {},
        }
    return {"id": node_id, "message": message, "parent": parent, "children": children}


def chatgpt_export() -> str:
    """Two conversations. The first has an edited message: the branch the person abandoned
    ("I live in Paris") is not on the thread that ends at current_node."""
    first = {
        "title": "Moving",
        "create_time": T0,
        "update_time": T0 + 600,
        "conversation_id": "c-1",
        "id": "c-1",
        "current_node": "n5",
        "mapping": {
            "root": _node("root", None, "", None, ["n0"]),
            "n0": _node("n0", "system", "You are ChatGPT.", "root", ["n1", "n1b"], T0),
            "n1b": _node("n1b", "user", "I live in Paris.", "n0", [], T0 + 30),
            "n1": _node("n1", "user", "I just moved to Lisbon with my dog Biscuit.", "n0", ["n2"], T0 + 60),
            "n2": _node("n2", "assistant", "Welcome to Lisbon!", "n1", ["n3"], T0 + 61),
            "n3": _node("n3", "tool", "search results", "n2", ["n4"], T0 + 62),
            "n4": _node(
                "n4",
                "user",
                "I work as a nurse.",
                "n3",
                ["n5"],
                T0 + 120,
                parts=[{"asset": "img"}, "I work as a nurse."],
            ),
            "n5": _node("n5", "assistant", "That is demanding work.", "n4", [], T0 + 121),
        },
    }
    second = {
        "title": "Cooking",
        "create_time": T0 + 86400,
        "id": "c-2",
        "current_node": "k2",
        "mapping": {
            "k1": _node("k1", "user", "I am allergic to peanuts.", None, ["k2"], None),
            "k2": _node("k2", "assistant", "Noted.", "k1", [], T0 + 86401),
        },
    }
    return json.dumps([first, second])


def claude_export() -> str:
    return json.dumps(
        [
            {
                "uuid": "conv-1",
                "name": "Garden",
                "created_at": "2024-05-02T10:00:00.000000Z",
                "updated_at": "2024-05-02T10:05:00.000000Z",
                "chat_messages": [
                    {
                        "uuid": "msg-1",
                        "sender": "human",
                        "text": "I grow tomatoes on my balcony.",
                        "content": [{"type": "text", "text": "I grow tomatoes on my balcony."}],
                        "created_at": "2024-05-02T10:00:00.000000Z",
                    },
                    {
                        "uuid": "msg-2",
                        "sender": "assistant",
                        "text": "Lovely.",
                        "content": [{"type": "text", "text": "Lovely."}],
                        "created_at": "2024-05-02T10:00:05.000000Z",
                    },
                    {
                        "uuid": "msg-3",
                        "sender": "human",
                        "text": "My sister Ana visits in June.",
                        "content": [],
                        "created_at": "2024-05-02T10:03:00.000000Z",
                    },
                ],
            }
        ]
    )


def jsonl_export(n: int = 3) -> str:
    lines = [
        {
            "session_id": "old-app",
            "user_input": f"Note {i}: I like hiking trail number {i}.",
            "occurred_at": f"2023-07-{i + 1:02d}T08:00:00Z",
        }
        for i in range(n)
    ]
    return "\n".join(json.dumps(line) for line in lines) + "\n"
