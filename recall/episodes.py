"""Episodes in recall: hits over what was said, and their fusion with fact hits (docs/design.md §10).

An episode's lexical and vector lists are read from the episode tables with
the facts' rules (recall.sides, recall.rules) and fused the same way (score-damped RRF with
full-information fusion), so a fact's and an episode's fused scores are on one
scale. The two hit lists are then merged by score; a fact and the turn it came
from say the same thing, so with MEMORY_RECALL_EPISODE_MERGE the lower of such
a pair is folded into the higher one (it takes no slot of its own) instead of
both crowding the top k. The item that stays returns what was folded into it:
a fact its source turn's words as a quote, an episode its folded facts
(recall.hits, recall.answer), so a caller receives every word a slot was ranked for.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Protocol

from django.conf import settings
from django.db.models import QuerySet

from facts.models import Fact, MemoryUser, Turn
from recall import fusion
from recall.hits import EpisodeHit, FactHit, Hit

SOURCES = ("facts", "episodes")


class RankedLists(Protocol):
    """The lexical and vector lists of a search, best first (recall.services._Lists)."""

    lexical: list[tuple[int, float]]  # (id, bm25: lower is better)
    vector: list[tuple[int, float]]  # (id, cosine distance)


def check_sources(sources: Iterable[str] | None) -> tuple[str, ...]:
    from core.errors import Rejected

    chosen = tuple(dict.fromkeys(sources or ()))
    if not chosen or any(s not in SOURCES for s in chosen):
        raise Rejected("sources", f"sources must be a non-empty list of {', '.join(SOURCES)}.")
    return chosen


def said_by(user: MemoryUser, as_of: datetime | None) -> QuerySet[Turn]:
    """The user's episodes recall may return: still episodes, and said by `as_of` when given."""
    turns = Turn.objects.episodes().filter(user=user)
    return turns if as_of is None else turns.filter(occurred_at__lte=as_of)


# What an episode hit reads of its turn; the rest of the row (the reply, the extraction outcome)
# stays on disk.
HIT_FIELDS = ("id", "user_id", "session_id", "turn_id", "user_input", "occurred_at", "extractor")


def _allowed_turns(turns: QuerySet[Turn], ranked: list[fusion.Candidate], limit: int | None) -> dict[int, Turn]:
    """The turns of the best `limit` candidates that `turns` still holds, read in score order: one
    query, plus one more for each stretch of candidates that stopped being episodes."""
    loaded: dict[int, Turn] = {}
    start = 0
    while start < len(ranked) and (limit is None or len(loaded) < limit):
        stretch = ranked[start:] if limit is None else ranked[start : start + limit - len(loaded)]
        loaded.update(turns.filter(pk__in=[c.fact_id for c in stretch]).in_bulk())
        start += len(stretch)
    return loaded


def load_hits(
    user: MemoryUser, cands: dict[int, fusion.Candidate], lists: RankedLists, as_of: datetime | None, limit: int | None
) -> list[EpisodeHit]:
    """The fused episode candidates as hits, best first. The query re-checks ownership and that
    each turn is still an episode (an index row lagging behind the write path never leaks);
    `as_of` keeps the turns said by then."""
    ranked = sorted(cands.values(), key=lambda c: (-c.score, -c.fact_id))
    loaded = _allowed_turns(said_by(user, as_of).only(*HIT_FIELDS), ranked, limit)
    ranked = [c for c in ranked if c.fact_id in loaded][:limit]
    produced = _produced(user, list(loaded))
    lex, dist = dict(lists.lexical), dict(lists.vector)
    hits = []
    for c in ranked:
        if c.fact_id in lex:
            c.signals["lexical_score"] = round(-lex[c.fact_id], 4)
        if c.fact_id in dist:
            c.signals["vector_similarity"] = round(1.0 - dist[c.fact_id], 4)
        hits.append(EpisodeHit(loaded[c.fact_id], c.score, c.signals, produced.get(c.fact_id, [])))
    return hits


def merge(fact_hits: list[FactHit], episode_hits: list[EpisodeHit]) -> list[Hit]:
    """Both kinds in one ranking by fused score; a fact and its source turn's episode fold into
    whichever of the two ranks higher (when MEMORY_RECALL_EPISODE_MERGE is on)."""
    ranked: list[Hit] = sorted(
        [*fact_hits, *episode_hits], key=lambda h: (-h.score, 0 if h.kind == "fact" else 1, -_pk(h))
    )
    if not settings.MEMORY_RECALL_EPISODE_MERGE:
        return ranked
    kept: list[Hit] = []
    by_turn: dict[int, Hit] = {}  # turn pk -> the kept item that stands for it
    for hit in ranked:
        turn_pk = hit.fact.source_turn_id if hit.kind == "fact" else hit.turn.pk
        holder = by_turn.get(turn_pk) if turn_pk else None
        if holder is not None and (hit.kind == "episode" or holder.kind == "episode"):
            holder.folded.append(hit)
            continue
        if turn_pk:
            by_turn.setdefault(turn_pk, hit)
        kept.append(hit)
    return kept


def quote_sources(user: MemoryUser, hits: list[Hit], as_of: datetime | None) -> None:
    """Give each fact hit that has no source turn folded into it that turn's words, as if the
    turn's episode had been folded in: a fact's sentence says less than what the user said, and a
    caller who asked for episodes receives the words its fact was taken from (while the turn is an
    episode recall may return, said by `as_of`). Two queries, whatever the count."""
    lacking = [h for h in hits if h.kind == "fact" and h.fact.source_turn_id and not h.folded]
    if not lacking:
        return
    turns = said_by(user, as_of).only(*HIT_FIELDS).in_bulk({h.fact.source_turn_id for h in lacking})
    produced = _produced(user, list(turns))
    for hit in lacking:
        if (turn := turns.get(hit.fact.source_turn_id)) is not None:
            hit.folded.append(EpisodeHit(turn, hit.score, {"source_of_fact": True}, produced.get(turn.pk, [])))


def _produced(user: MemoryUser, turn_ids: list[int]) -> dict[int, list[Fact]]:
    """turn pk -> the live facts each of those turns produced, oldest first (one query)."""
    produced: dict[int, list[Fact]] = {}
    for fact in Fact.objects.live().filter(user=user, source_turn_id__in=turn_ids).order_by("pk"):
        if fact.source_turn_id is not None:  # always, by the filter; said for the type checker
            produced.setdefault(fact.source_turn_id, []).append(fact)
    return produced


def _pk(hit: Hit) -> int:
    return hit.fact.pk if hit.kind == "fact" else hit.turn.pk


def text_length(hit: Hit) -> int:
    """The characters an item returns (what a budget counts): a fact with the quote of its folded
    source turn, an episode with the facts folded into it."""
    if hit.kind == "fact":
        quote = hit.quote
        return len(hit.fact.text) + (len(quote.text) if quote is not None else 0)
    return len(hit.text) + sum(len(f.text) for f in hit.folded_facts)
