"""What a recall returns: one hit per fact or per episode (a turn the user said), with the
score that ranked it and the signals behind it (docs/design.md §5, §10)."""

from __future__ import annotations

from dataclasses import dataclass, field

from facts.models import Fact, Turn


@dataclass
class FactHit:
    fact: Fact
    score: float
    signals: dict = field(default_factory=dict)
    kind: str = "fact"
    folded: list = field(default_factory=list)  # episode hits merged into this one


@dataclass
class EpisodeHit:
    turn: Turn
    score: float
    signals: dict = field(default_factory=dict)
    facts: list[Fact] = field(default_factory=list)  # the live facts this turn produced
    kind: str = "episode"
    folded: list = field(default_factory=list)  # fact hits merged into this one

    @property
    def text(self) -> str:
        return self.turn.user_input
