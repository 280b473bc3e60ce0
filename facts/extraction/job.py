"""What the extraction chain's tasks pass each other (facts.extraction.chain), typed.

`Job`: what `prepare` read for one turn (its window of messages, the person's live facts);
`Result`: the extractor's reply or why there is none. Celery carries them as JSON objects, and
their keys are the message format: `to_message` writes, and `from_message` reads, the very
dicts the tasks passed before these types existed, so a message queued by an older worker is
read by a newer one and the other way round (keys a reader does not know are carried along).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, fields
from typing import Any

from facts.turn_state import Timings


def ms(seconds: float) -> float:
    return round(max(seconds, 0.0) * 1000, 3)


def _split(message: dict[str, Any], cls: type) -> tuple[dict[str, Any], dict[str, Any]]:
    """The message's known keys (the dataclass's fields) and the others."""
    known = {f.name for f in fields(cls)} - {"extra"}
    return {k: v for k, v in message.items() if k in known}, {k: v for k, v in message.items() if k not in known}


@dataclass
class Job:
    turn_pk: int
    turn_id: str = ""
    tenant_id: str = ""
    user_pk: int = 0
    session_id: str = ""
    window: list[int] = field(default_factory=list)  # the turns fed together, oldest first
    now: str = ""  # the turn's occurred_at, ISO 8601
    facts: list[dict[str, Any]] = field(default_factory=list)  # the prompt's live facts
    refs: dict[str, str] = field(default_factory=dict)  # prompt ref (f3) -> fact uuid
    messages: list[dict[str, Any]] = field(default_factory=list)
    # enqueued_at, prepare_started, prepare_ms, llm_sent_at (epoch seconds, ms)
    timing: dict[str, float] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_message(cls, message: dict[str, Any]) -> Job:
        known, extra = _split(message, cls)
        return cls(**known, extra=extra)

    def to_message(self) -> dict[str, Any]:
        message = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "extra"}
        return {**self.extra, **message}


@dataclass
class Result:
    """A reply (`reply`, with `tries` and `reasks` when the model was called) or an `error`."""

    reply: dict[str, Any] | None = None
    error: str = ""
    extractor: str = ""
    llm_ms: float = 0.0
    tries: int | None = None
    reasks: int | None = None
    timing: dict[str, float] = field(default_factory=dict)  # llm_started, llm_task_ms, apply_sent_at
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_message(cls, message: dict[str, Any]) -> Result:
        known, extra = _split(message, cls)
        return cls(**{k: v for k, v in known.items() if v is not None or k == "reply"}, extra=extra)

    def to_message(self) -> dict[str, Any]:
        """The keys the previous code sent: a reply's, or an error's, not both."""
        message: dict[str, Any] = {**self.extra, "extractor": self.extractor, "llm_ms": self.llm_ms}
        if self.error:
            message["error"] = self.error
        if self.reply is not None:
            message["reply"] = self.reply
        for name in ("tries", "reasks"):
            if getattr(self, name) is not None:
                message[name] = getattr(self, name)
        if self.timing:
            message["timing"] = self.timing
        return message


def timings(job: Job, result: Result, apply_started: float) -> Timings:
    """Queue wait (the three hops) and processing (the three tasks) of one turn, in ms."""
    t = {**job.timing, **result.timing}
    waits = [
        t.get("prepare_started", apply_started) - t.get("enqueued_at", apply_started),
        t.get("llm_started", apply_started) - t.get("llm_sent_at", apply_started),
        apply_started - t.get("apply_sent_at", apply_started),
    ]
    return {
        "queue_wait_ms": round(sum(ms(w) for w in waits), 3),
        "processing_ms": round(
            t.get("prepare_ms", 0.0) + t.get("llm_task_ms", 0.0) + ms(time.time() - apply_started), 3
        ),
        "llm_ms": round(result.llm_ms, 3),
    }
