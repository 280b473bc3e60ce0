"""A replay extractor for `eval_pipeline`: an OpenAI-compatible endpoint on loopback that
answers each extraction call with the LoCoMo observations anchored on the turns it is shown.

Each observation is anchored on the first turn it cites (the earliest dia_id present in
the file) and carries a key of its own, so same-key arbitration never fires and every
fact the pipeline stores maps back to exactly one observation (its evidence dia_ids are
the fact's provenance when recall is scored).

The turns of a call are recognised in the prompt built by facts/extraction/prompt.py:
each message block opens with its time (`--- message at <iso> ---`) and then the user's
text, and (time, text) names one turn of the replayed conversations.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from dataclasses import dataclass, field

from bench.locomo_data import TurnSpec, conversation_turns, corpus_items
from bench.scripted_llm import Reply, ScriptedLLM

_BLOCK = re.compile(r"--- message at (?P<at>[^\n]+?) ---\nUser: ")


@dataclass
class Observation:
    key: str
    conversation: str
    text: str
    dia_ids: set[str]
    anchor: str  # dia_id of the turn the extractor states it from ("" if no cited turn exists)


@dataclass
class Conversation:
    name: str
    turns: list[TurnSpec]
    observations: list[Observation]


def replay_key(conversation: str, index: int) -> str:
    # One token nobody asks about, so the key's words add nothing a question could match.
    return "replay_" + hashlib.sha1(f"{conversation}|{index}".encode()).hexdigest()[:12]


def conversation_plan(name: str, conv: dict) -> Conversation:
    """The turns to post and the observations to replay, as eval_recall reads them."""
    items = corpus_items(conv, "observations")
    observations = [
        Observation(replay_key(name, i), name, item.text, set(item.dia_ids), item.turn) for i, item in enumerate(items)
    ]
    return Conversation(name, conversation_turns(conv), observations)


@dataclass
class ReplayExtractor:
    """Answers extraction prompts; remembers what it was shown and what it answered."""

    conversations: list[Conversation]
    calls: int = 0
    shown: set[tuple[str, str]] = field(default_factory=set)  # (conversation, dia_id) seen in a prompt
    sent: set[str] = field(default_factory=set)  # observation keys answered at least once
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self._by_time: dict[str, list[tuple[str, TurnSpec]]] = {}
        self._anchored: dict[tuple[str, str], list[Observation]] = {}
        for conv in self.conversations:
            for spec in conv.turns:
                self._by_time.setdefault(spec.when.isoformat(), []).append((conv.name, spec))
            for obs in conv.observations:
                if obs.anchor:
                    self._anchored.setdefault((conv.name, obs.anchor), []).append(obs)

    def turns_in(self, prompt: str) -> list[tuple[str, str]]:
        """(conversation, dia_id) of every message block in the prompt."""
        found = []
        for match in _BLOCK.finditer(prompt):
            rest = prompt[match.end() :]
            for name, spec in self._by_time.get(match.group("at"), []):
                if rest.startswith(spec.user_input):
                    found.append((name, spec.dia_id))
                    break
        return found

    def answer(self, request: dict) -> str:
        """The reply text (the extraction JSON) for one chat-completions request body."""
        prompt = "\n".join(str(m.get("content", "")) for m in request.get("messages", []) if m.get("role") == "user")
        turns = self.turns_in(prompt)
        items = [obs for turn in turns for obs in self._anchored.get(turn, [])]
        with self._lock:
            self.calls += 1
            self.shown.update(turns)
            self.sent.update(obs.key for obs in items)
        add: list[dict] = [
            {"text": obs.text, "key": obs.key, "category": "other", "entities": [], "confidence": None} for obs in items
        ]
        return json.dumps({"add": add, "supersede": [], "expire": [], "edges": []})


def replay_server(extractor: ReplayExtractor) -> ScriptedLLM:
    """The loopback OpenAI-compatible endpoint around `extractor.answer` (not started)."""
    return ScriptedLLM(lambda request: Reply.text(extractor.answer(request)))
