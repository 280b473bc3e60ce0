"""What a recall returns: one hit per fact or per episode (a turn the user said), with the
score that ranked it and the signals behind it (docs/design.md §5, §10).

A turn's words reach a caller as a `Quote`, built here once for every door (REST, the context
block, MCP, mem0): an episode hit's own turn, and the source turn folded into a fact hit
(recall.episodes.merge), so what a fact stands for is returned with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from typing import Any, Literal

from core.errors import Rejected
from facts.guard import check_untrusted_text
from facts.models import Fact, Turn

QUOTE_CHARS = 500  # as much of a message as a prompt-bound door (context block, MCP) quotes
_SPACE = re.compile(r"\s+")


def floor_rule(text: str) -> str | None:
    """The injection floor's rule these words break (facts/guard.py), or None."""
    try:
        check_untrusted_text(text)
    except Rejected as refused:
        return refused.rule
    return None


@dataclass(frozen=True)
class Quote:
    """What the user said in one turn, and when. `text` is the raw words (REST returns them as
    data); `line` is what goes before a model; `injection_rule` is set when the words fail the
    injection floor, and then no prompt-bound door shows them."""

    turn_id: str
    session_id: str
    occurred_at: datetime
    text: str
    facts: tuple[str, ...]  # ids of the live facts the turn produced
    injection_rule: str | None

    @classmethod
    def of(cls, turn: Turn, facts: list[Fact]) -> Quote:
        return cls(
            turn_id=turn.turn_id,
            session_id=turn.session_id,
            occurred_at=turn.occurred_at,
            text=turn.user_input,
            facts=tuple(str(f.uuid) for f in facts),
            injection_rule=floor_rule(turn.user_input),
        )

    @property
    def quotable(self) -> bool:
        return self.injection_rule is None

    @property
    def words(self) -> str:
        """The words on one line (a message cannot forge structure), its double quotes turned single
        so a quote cannot be closed early, cut to QUOTE_CHARS."""
        said = _SPACE.sub(" ", self.text).strip().replace('"', "'")
        return said if len(said) <= QUOTE_CHARS else said[: QUOTE_CHARS - 1] + "\u2026"

    @property
    def line(self) -> str:
        return f'On {self.occurred_at.astimezone(UTC):%Y-%m-%d %H:%M} UTC the user said: "{self.words}"'


@dataclass
class FactHit:
    fact: Fact
    score: float
    signals: dict[str, Any] = field(default_factory=dict)
    kind: Literal["fact"] = "fact"
    folded: list[Hit] = field(default_factory=list)  # episode hits merged into this one

    @property
    def quote(self) -> Quote | None:
        """The source turn's words when its episode was folded into this fact (recall.episodes.merge)."""
        return next((h.quote for h in self.folded if h.kind == "episode"), None)

    @property
    def folded_facts(self) -> list[Fact]:
        return []


@dataclass
class EpisodeHit:
    turn: Turn
    score: float
    signals: dict[str, Any] = field(default_factory=dict)
    facts: list[Fact] = field(default_factory=list)  # the live facts this turn produced
    kind: Literal["episode"] = "episode"
    folded: list[Hit] = field(default_factory=list)  # fact hits merged into this one

    @property
    def text(self) -> str:
        return self.turn.user_input

    @cached_property
    def quote(self) -> Quote:
        return Quote.of(self.turn, self.facts)

    @property
    def folded_facts(self) -> list[Fact]:
        """The facts of this turn that ranked below it and were folded into it: returned with it."""
        return [h.fact for h in self.folded if h.kind == "fact"]


# A recall hit of either kind; `kind` tells them apart.
Hit = FactHit | EpisodeHit
