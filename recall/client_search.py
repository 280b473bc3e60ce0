"""Search for the client doors (MCP `search_memories`, mem0's `search`): facts, and episodes beside them.

Which function a door calls: REST `/recall` and the context block want one ranked
list and call `recall.services.recall`; MCP and mem0 call `client_search` here.

Those clients read a list of memories and use each id with the other memory
calls. That list stays exactly the facts-only recall it always was; episodes
come from a recall of their own and are returned as a second list, so no fact
is displaced or folded away for a client that knows nothing of episodes. Both
recalls share the query embedding (cached) and score on one scale (recall.episodes),
so a client may interleave the two lists by score. An episode is what the user
said, raw: it is returned only when its words pass the injection floor
(facts/guard.py), as for the context block (docs/design.md §10). Each door renders an
episode from its `quote` (recall.hits.Quote), built once for every door.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from facts.models import MemoryUser
from recall import episodes
from recall.hits import EpisodeHit, FactHit, floor_rule
from recall.services import recall

__all__ = ["ClientSearch", "client_search", "default_sources", "floor_rule", "quotable"]


@dataclass
class ClientSearch:
    facts: list[FactHit] = field(default_factory=list)
    episodes: list[EpisodeHit] = field(default_factory=list)
    withheld: int = 0  # episodes left out because their words fail the injection floor
    mode: str = "hybrid"
    degraded: bool = False


def default_sources(user: MemoryUser) -> tuple[str, ...]:
    """Facts, and episodes once the user has any."""
    return ("facts", "episodes") if user.turns.episodes().exists() else ("facts",)


def quotable(hit: EpisodeHit) -> bool:
    return hit.quote.quotable


def client_search(
    *, user: MemoryUser, query: str, k: int, mode: str, sources: Iterable[str] | None, as_of: datetime | None = None
) -> ClientSearch:
    """The facts-only recall (unchanged) and, when `sources` names them, the best `k` episodes.
    One RecallLog row per search, as for one REST recall: the second recall is not logged."""
    chosen = episodes.check_sources(sources)
    found = ClientSearch(mode=mode)
    logged = False
    for source in chosen:
        result = recall(user=user, query=query, k=k, mode=mode, as_of=as_of, sources=(source,), log=not logged)
        logged = True
        found.mode, found.degraded = result.mode, found.degraded or result.degraded
        # A recall of one source returns hits of that kind only; the tests say so to the type checker.
        if source == "facts":
            found.facts = [hit for hit in result.items if isinstance(hit, FactHit)]
        else:
            found.episodes = [hit for hit in result.items if isinstance(hit, EpisodeHit) and quotable(hit)]
            found.withheld = len(result.items) - len(found.episodes)
    return found
