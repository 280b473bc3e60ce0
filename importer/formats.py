"""Conversation exports read into turns: a ChatGPT data export, a Claude export, plain JSONL.

Each reader turns one file into `ImportedTurn`s in the order they were said: a person's
message with the assistant's answers after it, its original time (so "yesterday" anchors to
when it was said), and a turn id derived from the export's own message id, so the same file
imported twice gives the same ids and adds nothing the second time (docs/api.md, "Import").
Only text is read; images, files, tool calls and system messages are left out.

The shapes, as the services publish them:
- ChatGPT `conversations.json`: a list of conversations, each a tree of messages
  (`mapping`: node id -> {message, parent, children}) whose `current_node` ends the thread
  the person saw; a message has `author.role`, `content.parts` and `create_time` (epoch).
- Claude `conversations.json`: a list of conversations, each with `uuid`, `created_at` and
  `chat_messages` in order, each with `uuid`, `sender` (human, assistant), `text` or
  `content` blocks, and `created_at` (ISO 8601).
- JSONL: one turn per line, the fields of `POST /turns` (`session_id`, `turn_id`,
  `user_input`, `assistant_response`, `occurred_at`); a line without `turn_id` gets one
  from its content. The API takes the same turns as a JSON list.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

FORMATS = ("chatgpt", "claude", "jsonl")

# What the API states of each body (docs/api.md, "Import"), and exactly what `from_data` refuses
# as not such an export: the top-level shapes. Inside them the reading is tolerant (a message
# it cannot read is left out, a time it cannot read is the conversation's), because exports
# drift from version to version; a turn it cannot post is refused alone, in the answer.
_TURN = {
    "type": "object",
    "required": ["user_input"],
    "properties": {
        name: {"type": "string"}
        for name in ("user_input", "assistant_response", "session_id", "turn_id", "occurred_at")
    },
}
SCHEMAS = {
    "chatgpt": {
        "type": "array",
        "items": {"type": "object", "required": ["mapping"], "properties": {"mapping": {"type": "object"}}},
    },
    "claude": {
        "type": "array",
        "items": {"type": "object", "required": ["chat_messages"], "properties": {"chat_messages": {"type": "array"}}},
    },
    "turns": {"type": "array", "items": _TURN},
}


class BadExport(ValueError):
    """The file is not an export of the format given; the message says where and why."""


# One message of a conversation as an export gives it: role, message id, text, time.
Message = tuple[str, str, str, datetime | None]


@dataclass(frozen=True)
class ImportedTurn:
    session_id: str
    turn_id: str
    user_input: str
    assistant_response: str
    occurred_at: datetime | None
    # Why this turn cannot be posted as it is (e.g. a time no one can read); "" when it can.
    refusal: str = ""

    def as_json(self) -> dict[str, Any]:
        when = self.occurred_at.isoformat() if self.occurred_at else None
        return {**self.__dict__, "occurred_at": when}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ImportedTurn:
        when = data.get("occurred_at")
        return cls(**{**data, "occurred_at": datetime.fromisoformat(when) if when else None})


def read(kind: str, text: str) -> list[ImportedTurn]:
    """The turns of `text`, an export of `kind` (one of FORMATS, or "turns": a JSON list of
    turns, what the API takes); BadExport when it is not one. JSONL is the same list of turns,
    one object a line."""
    if kind not in (*FORMATS, "turns"):
        raise BadExport(f"Unknown format {kind!r}; use one of {', '.join(FORMATS)}.")
    if kind == "jsonl":
        return from_data("turns", list(_lines(text)))
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise BadExport(f"This is not JSON ({exc}); a {kind} export is conversations.json.") from exc
    return from_data(kind, data)


def from_data(kind: str, data: object) -> list[ImportedTurn]:
    """The turns of parsed JSON of `kind` (chatgpt, claude, turns), checked as SCHEMAS says."""
    if not isinstance(data, list):
        raise BadExport(f"A {kind} export is a JSON list; this is a {type(data).__name__}.")
    reader = {"chatgpt": _chatgpt, "claude": _claude, "turns": _turn}[kind]
    turns: list[ImportedTurn] = []
    for number, item in enumerate(data):
        if not isinstance(item, dict):
            raise BadExport(f"Item {number} is a {type(item).__name__}, not an object.")
        turns.extend(_storable(turn) for turn in reader(item, number))
    return turns


def _storable(turn: ImportedTurn) -> ImportedTurn:
    """A turn whose texts no database can keep (a NUL character, or a lone surrogate that JSON's
    \\u escapes allow and UTF-8 does not) is kept without its words, to be refused alone."""
    texts = (turn.session_id, turn.turn_id, turn.user_input, turn.assistant_response)
    if all(_keepable(text) for text in texts):
        return turn
    refusal = "The turn holds a NUL character or text that is not Unicode (a lone surrogate)."
    session_id, turn_id = _printable(turn.session_id), _printable(turn.turn_id)
    return ImportedTurn(session_id, turn_id, "", "", turn.occurred_at, refusal)


def _keepable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return "\x00" not in text


def _printable(text: str) -> str:
    return text.encode("utf-8", "backslashreplace").decode("utf-8").replace("\x00", "\\x00")


def _lines(text: str) -> Iterator[object]:
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                yield json.loads(line)
            except ValueError as exc:
                raise BadExport(f"Line {number} is not JSON ({exc}).") from exc


def _pair(session_id: str, messages: Iterator[Message]) -> Iterator[ImportedTurn]:
    """(role, id, text, time) in order -> a turn per person's message, with the answers after it."""
    current: dict[str, Any] | None = None
    for role, message_id, text, when in messages:
        if role == "user":
            if current is not None:
                yield ImportedTurn(**current)
            current = {
                "session_id": session_id,
                "turn_id": message_id,
                "user_input": text,
                "assistant_response": "",
                "occurred_at": when,
            }
        elif role == "assistant" and current is not None:
            joined = f"{current['assistant_response']}\n\n{text}" if current["assistant_response"] else text
            current["assistant_response"] = joined
    if current is not None:
        yield ImportedTurn(**current)


def _epoch(value: object) -> datetime | None:
    if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
        return None
    try:
        return datetime.fromtimestamp(float(value), UTC)
    except (OverflowError, ValueError, OSError):  # beyond the calendar: no time rather than a wrong one
        return None


def _iso(value: object) -> datetime | None:
    """An ISO 8601 time, or None when there is none or it cannot be read."""
    if not isinstance(value, str) or not value:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _chatgpt(conversation: dict[str, Any], number: int) -> Iterator[ImportedTurn]:
    mapping = conversation.get("mapping")
    if not isinstance(mapping, dict):
        raise BadExport(f"Conversation {number} has no 'mapping' of messages: is this a ChatGPT export?")
    conversation_id = str(conversation.get("conversation_id") or conversation.get("id") or number)
    started = _epoch(conversation.get("create_time"))
    return _pair(f"chatgpt-{conversation_id}", _chatgpt_thread(mapping, conversation.get("current_node"), started))


def _chatgpt_thread(mapping: dict[str, Any], leaf: object, started: datetime | None) -> Iterator[Message]:
    # The thread the person saw: from the last node up through its parents (edited
    # messages leave other branches in the tree, which are not what was finally said).
    chain, node, seen = [], leaf if leaf in mapping else _last_node(mapping), set()
    while isinstance(node, str) and node in mapping and node not in seen:
        seen.add(node)
        chain.append((node, _object(mapping[node])))
        node = chain[-1][1].get("parent")
    for key, entry in reversed(chain):
        message = _object(entry.get("message"))
        role = _object(message.get("author")).get("role")
        parts = _object(message.get("content")).get("parts")
        text = "\n".join(p for p in parts if isinstance(p, str)).strip() if isinstance(parts, list) else ""
        if role in ("user", "assistant") and text:
            message_id = message.get("id") or key
            yield role, f"chatgpt-{message_id}", text, _epoch(message.get("create_time")) or started


def _object(value: object) -> dict[str, Any]:
    """A part of the export that should be an object; anything else reads as empty."""
    return value if isinstance(value, dict) else {}


def _last_node(mapping: dict[str, Any]) -> str | None:
    leaves = [key for key, entry in mapping.items() if not _object(entry).get("children")]
    return leaves[-1] if leaves else None


def _claude(conversation: dict[str, Any], number: int) -> Iterator[ImportedTurn]:
    messages = conversation.get("chat_messages")
    if not isinstance(messages, list):
        raise BadExport(f"Conversation {number} has no 'chat_messages' list: is this a Claude export?")
    conversation_id = str(conversation.get("uuid") or number)
    started = _iso(conversation.get("created_at"))
    return _pair(f"claude-{conversation_id}", _claude_messages(messages, number, started))


def _claude_messages(messages: list[object], number: int, started: datetime | None) -> Iterator[Message]:
    for index, message in enumerate(_object(m) for m in messages):
        role = {"human": "user", "assistant": "assistant"}.get(str(message.get("sender")))
        content = message.get("content")
        blocks = content if isinstance(content, list) else []
        text = "\n".join(str(b.get("text", "")) for b in blocks if isinstance(b, dict) and b.get("type") == "text")
        text = (text or str(message.get("text") or "")).strip()
        if role and text:
            message_id = message.get("uuid") or f"{number}-{index}"
            yield role, f"claude-{message_id}", text, _iso(message.get("created_at")) or started


def _turn(data: dict[str, Any], number: int) -> Iterator[ImportedTurn]:
    texts = {name: data.get(name, "") for name in ("user_input", "assistant_response", "session_id", "turn_id")}
    wrong = [name for name, value in texts.items() if not isinstance(value, str)]
    if "user_input" not in data or wrong or not isinstance(data.get("occurred_at", ""), str):
        raise BadExport(
            f"Turn {number}: user_input is required, and it, assistant_response, session_id, turn_id and "
            "occurred_at are text when given."
        )
    session_id = texts["session_id"] or "import"
    written = data.get("occurred_at") or ""
    when = _iso(written)
    turn_id = texts["turn_id"] or _content_id(session_id, written, texts["user_input"], texts["assistant_response"])
    refusal = f"occurred_at {written!r} is not an ISO 8601 time." if written and when is None else ""
    yield ImportedTurn(session_id, turn_id, texts["user_input"], texts["assistant_response"], when, refusal)


def _content_id(session_id: str, written: str, user_input: str, answer: str) -> str:
    # The same line gives the same id, so a second run of the same file adds nothing.
    seed = json.dumps([session_id, written, user_input, answer])
    return "import-" + hashlib.sha256(seed.encode()).hexdigest()[:32]
