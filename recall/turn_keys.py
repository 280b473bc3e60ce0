"""What a turn's episode index entry holds (MEMORY_RECALL_TURN_KEYS, docs/recall.md "Turn keys").

`words`: what the user said in the turn (and the exchange around it). `words+facts`: those words
and the text of the live facts extracted from the turn, the LongMemEval paper's "key expansion"
(key = turn + its facts). Only the key grows: a hit still returns the turn's own words, which the
facts were extracted from, so nothing is credited that the caller does not receive.

The entry follows the facts: every change of a fact's text or liveness marks the fact in the
index outbox (recall.indexer.mark), which then marks its source turn too, so the turn is
re-indexed with its facts as they are now, asynchronously and in the same batches. A forgotten
fact's turn is withdrawn inside the forget's transaction (its rows go then), so its words never
outlive the forget in the episode index.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings

from facts.models import Fact, Turn
from facts.selectors import of_users

WORDS = "words"
WORDS_AND_FACTS = "words+facts"


def with_facts() -> bool:
    return settings.MEMORY_RECALL_TURN_KEYS == WORDS_AND_FACTS


def turns_of(fact_ids: Iterable[int], users: Iterable[int] | None = None) -> list[int]:
    """The episodes whose entry holds (or held) these facts' words: their source turns. A retired
    fact still names its turn, so the turn is re-indexed without it. `users`: the facts' people,
    when known (facts.selectors.of_users)."""
    ids = [int(i) for i in fact_ids]
    if not ids or not with_facts():
        return []
    users = None if users is None else list(users)
    sources = of_users(Fact.objects.filter(pk__in=ids), users).exclude(source_turn=None).values("source_turn_id")
    return list(of_users(Turn.objects.episodes().filter(pk__in=sources), users).values_list("pk", flat=True))


def facts_said(turn_ids: Iterable[int], *, lock: bool = False, users: Iterable[int] | None = None) -> dict[int, str]:
    """turn pk -> the text of the live facts extracted from it, one a line, oldest first.

    `lock` (the indexer's write transaction) holds those facts' rows until commit, taken before
    the turns' own (episode_index), in the order the indexer already locks facts then turns: a
    fact retired or changed meanwhile waits, and its outbox mark comes after this write."""
    ids = [int(i) for i in turn_ids]
    if not ids or not with_facts():
        return {}
    # By primary key, the order every locking read of facts takes (recall.index.live_documents):
    # by turn first, two index writes could each hold a fact the other waits for. Per turn, the
    # lines still come oldest first.
    facts = of_users(Fact.objects.live().filter(source_turn_id__in=ids), users).order_by("pk")
    if lock:
        facts = facts.select_for_update()
    lines: dict[int, list[str]] = {}
    for turn_id, text in facts.values_list("source_turn_id", "text"):
        lines.setdefault(turn_id, []).append(text)
    return {turn_id: "\n".join(texts) for turn_id, texts in lines.items()}


def key_text(said: str, facts: str) -> str:
    """The text a turn is indexed under: its words, then its facts. The facts go after the words so
    a long message's vector keeps its own words first (the model reads at most 256 word pieces)."""
    return f"{said}\n{facts}" if facts else said
