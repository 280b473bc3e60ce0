"""recall(): hybrid recall over one user's facts (docs/design.md §5).

lexical (FTS5 BM25 over the user's namespaced terms) and vector (exact cosine
scan of the user's vectors) lists are re-ranked over their union on both
signals, fused by weighted RRF with a third list of facts from a time the query
names (or by the linear blend), weighted by category, back-filled by graph and
recency supplements that never outrank a direct hit, and packed under a
character budget.
`as_of` answers from the facts valid at that time instead of the live index
(recall.as_of); the two sides and their rules are in recall.sides.

recall() runs one step after another: _plan (validate the request), _windows
(the times the query names), _gather (read both lists), _fuse, _add_time_list,
_direct_hits (category weights, load the facts), _prefer_newer (facts and episodes
on one time scale), merge, _newest_leaders_first, recall.backfill, pack, _log;
episodes take the same steps up to the time list (_episodes_side). What the steps read of
the candidate facts' rows is read once (recall.candidate_rows).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from core.errors import Rejected
from facts.logbuffer import save_later
from facts.models import Fact, MemoryUser
from recall import backfill, candidate_rows, episodes, fusion, sides, through_turns, time_list
from recall.as_of import Snapshot
from recall.candidate_rows import CandidateRows
from recall.dates import Window
from recall.dates import windows as query_windows
from recall.embeddings import EmbedderError
from recall.hits import EpisodeHit, FactHit, Hit
from recall.query import MAX_QUERY_CHARS, content_words
from recall.sides import LexicalSide
from recall.tables import EPISODES, FACTS, Tables

MODES = ("hybrid", "lexical", "vector")
MAX_K = 200


@dataclass
class RecallResult:
    items: list[Hit]  # FactHit, and EpisodeHit when episodes were asked for (recall.hits)
    mode: str
    degraded: bool = False
    stats: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Plan:
    """One validated recall request and what every step reads from it."""

    user: MemoryUser
    query: str  # cut to MAX_QUERY_CHARS
    terms: list[str]  # its content words
    k: int
    mode: str
    budget_chars: int | None
    as_of: datetime | None
    depth: int  # the length of each ranked list
    scan: int  # how deep each side is read (deeper for full-information fusion)
    full_fusion: bool
    base: QuerySet[Fact]  # the facts recall may return: live, or valid at as_of
    snapshot: Snapshot | None  # those facts in memory, for as_of
    rows: CandidateRows  # what the steps read of the candidate facts' rows, once (recall.candidate_rows)
    sources: tuple[str, ...] = ("facts",)


@dataclass
class _Lists:
    """The lexical and vector lists, best first, and how reading them went."""

    mode: str  # the mode used: vector mode falls back to lexical without an embedder
    lexical: list[tuple[int, float]] = field(default_factory=list)  # (fact id, bm25: lower is better)
    vector: list[tuple[int, float]] = field(default_factory=list)  # (fact id, cosine distance)
    dropped: list[str] = field(default_factory=list)  # universal terms left out
    degraded: bool = False
    stats: dict[str, Any] = field(default_factory=dict)


def _plan(
    user: MemoryUser,
    query: str,
    k: int,
    mode: str,
    budget_chars: int | None,
    as_of: datetime | None,
    sources: Iterable[str] = ("facts",),
) -> _Plan:
    """Check the request (Rejected names the bad field) and fix what the steps read."""
    sources = episodes.check_sources(sources)
    if mode not in MODES:
        raise Rejected("mode", f"mode must be one of {', '.join(MODES)}.")
    if not 1 <= int(k) <= MAX_K:
        raise Rejected("k", f"k must be between 1 and {MAX_K}.")
    if budget_chars is not None and budget_chars < 1:
        raise Rejected("budget_chars", "budget_chars must be a positive number of characters.")
    k = int(k)
    query = (query or "")[:MAX_QUERY_CHARS]
    depth = max(settings.MEMORY_RECALL_CANDIDATES, k)
    # Full-information fusion needs each side's scores beyond its own top
    # `depth`: one deeper read of each side gives them, no second query.
    full_fusion = mode == "hybrid" and settings.MEMORY_RECALL_FUSION == "rrf" and settings.MEMORY_RECALL_FULL_FUSION
    if as_of is not None:
        base = Fact.objects.valid_at(as_of).filter(user=user)
        snapshot = Snapshot.of(base) if "facts" in sources else None
    else:
        base, snapshot = Fact.objects.live().filter(user=user), None
    return _Plan(
        user=user,
        query=query,
        terms=content_words(query),
        k=k,
        mode=mode,
        budget_chars=budget_chars,
        as_of=as_of,
        depth=depth,
        scan=max(depth, settings.MEMORY_RECALL_RESCORE_DEPTH) if full_fusion else depth,
        full_fusion=full_fusion,
        base=base,
        snapshot=snapshot,
        rows=CandidateRows(base),
        sources=sources,
    )


def _gather(plan: _Plan, tables: Tables = FACTS) -> _Lists:
    """Read both sides (of the facts' index, or the episodes'); without an embedder, hybrid goes
    on with words only and vector mode turns lexical. Episodes are read from the live index
    (what was said does not change; as_of filters them by time)."""
    lists = _Lists(mode=plan.mode)
    snapshot = plan.snapshot if tables is FACTS else None
    lexical_side = LexicalSide(plan.user.pk, plan.terms, snapshot, tables)
    if plan.mode != "vector":
        lists.lexical = lexical_side.top(plan.depth, plan.scan)
    vector_side = None
    if plan.mode in ("hybrid", "vector") and plan.query.strip():
        try:
            vector_side = sides.vector_side(plan.user, plan.query, snapshot, tables)
            lists.vector = vector_side.top(plan.depth, plan.scan)
            if vector_side.stale:  # the embedder switch moved since this process read it: again
                vector_side = sides.vector_side(plan.user, plan.query, snapshot, tables, sides.switch_seen())
                lists.vector = vector_side.top(plan.depth, plan.scan)
        except EmbedderError as exc:
            lists.degraded = True
            lists.stats["embedder_error"] = str(exc)[:200]
            if plan.mode == "vector":
                lists.mode = "lexical"
                lists.lexical = lexical_side.top(plan.depth, plan.depth)
    lists.dropped = lexical_side.dropped
    if plan.full_fusion and vector_side is not None:
        # Full-information fusion: every candidate of either list is ranked on
        # both sides, so a fact 3rd by meaning and 80th by words still gets its
        # lexical evidence counted (and vice versa).
        union = [fid for fid, _ in lists.lexical] + [fid for fid, _ in lists.vector]
        lists.lexical = lexical_side.rank(union)
        lists.vector = vector_side.rank(union)
    return lists


def _fuse(plan: _Plan, lists: _Lists, tables: Tables = FACTS) -> dict[int, fusion.Candidate]:
    """Both lists into one candidate set: weighted RRF (score-damped), or the linear blend
    (facts only; episodes are always fused by RRF)."""
    lexical, vector = lists.lexical, lists.vector
    if settings.MEMORY_RECALL_FUSION == "linear" and tables is FACTS:
        now = timezone.now()
        ids = {fid for fid, _ in lexical} | {fid for fid, _ in vector}
        ages = dict(plan.base.filter(pk__in=ids).values_list("pk", "last_mentioned_at"))
        recency = {
            fid: fusion.recency_weight((now - t).total_seconds(), settings.MEMORY_RECALL_HALF_LIFE_DAYS)
            for fid, t in ages.items()
        }
        return fusion.linear(lexical, vector, recency)
    damping = None
    if settings.MEMORY_RECALL_SCORE_DAMPING:
        damping = {
            "lexical": fusion.relative_scores([-score for _, score in lexical], [fid for fid, _ in lexical]),
            "vector": fusion.relative_scores([1.0 - d for _, d in vector], [fid for fid, _ in vector]),
        }
    return fusion.rrf(
        [
            ("lexical", settings.MEMORY_RECALL_LEXICAL_WEIGHT, [fid for fid, _ in lexical]),
            ("vector", settings.MEMORY_RECALL_VECTOR_WEIGHT, [fid for fid, _ in vector]),
        ],
        damping=damping,
    )


def _windows(plan: _Plan) -> list[Window]:
    """The times the query names. They add a third fused list in hybrid mode only: lexical
    and vector modes stay single-signal rankings."""
    if plan.mode == "hybrid" and settings.MEMORY_RECALL_TIME_WEIGHT > 0 and settings.MEMORY_RECALL_FUSION == "rrf":
        return query_windows(plan.query, plan.as_of or timezone.now())
    return []


def _add_time_list(plan: _Plan, cands: dict[int, fusion.Candidate], windows: list[Window], tables: Tables) -> None:
    """What the named times hold as a third fused list: facts by event_time (else valid_from),
    episodes by when they were said (recall.time_list)."""
    if not windows:
        return
    if tables is FACTS:
        plan.rows.read(list(cands))
        ids = time_list.in_windows(
            plan.base, cands, windows, plan.depth, time_list.FACT_MOMENT, plan.rows.rows, candidate_rows.BEYOND_MOMENT
        )
        plan.rows.added(ids)  # the rows of the facts it adds were read with them
    else:
        said = episodes.said_by(plan.user, plan.as_of)
        ids = time_list.in_windows(said, cands, windows, plan.depth, time_list.EPISODE_MOMENT)
    fusion.add_list(cands, "time", settings.MEMORY_RECALL_TIME_WEIGHT, ids)


def _direct_hits(plan: _Plan, lists: _Lists, cands: dict[int, fusion.Candidate]) -> list[FactHit]:
    """The fused candidates weighted by category, best first, with their facts loaded."""
    categories = plan.rows.categories(list(cands))
    cands = {fid: c for fid, c in cands.items() if fid in categories}
    fusion.apply_category_weights(cands, categories)
    lex_scores, vec_dists = dict(lists.lexical), dict(lists.vector)
    for fid, cand in cands.items():
        if fid in lex_scores:
            cand.signals["lexical_score"] = round(-lex_scores[fid], 4)
        if fid in vec_dists:
            cand.signals["vector_similarity"] = round(1.0 - vec_dists[fid], 4)
    direct = sorted(cands.values(), key=lambda c: (-c.score, -c.fact_id))
    # Only what can be returned is loaded as objects: k, or more when packing may skip some.
    keep = direct if plan.budget_chars is not None else direct[: plan.k]
    facts = _load_facts(plan, [c.fact_id for c in keep])
    return [FactHit(facts[c.fact_id], c.score, c.signals) for c in keep if c.fact_id in facts]


def _load_facts(plan: _Plan, ids: list[int]) -> dict[int, Fact]:
    """The facts of `ids` that `plan.base` holds, by id. Every one is the plan's user's, so each
    gets that user object instead of a join and a MemoryUser built per fact (FactOut reads
    `fact.user.external_id`)."""
    facts = plan.base.filter(pk__in=ids).in_bulk()
    for fact in facts.values():
        fact.user = plan.user
    return facts


def _log(plan: _Plan, result: RecallResult, lists: _Lists) -> None:
    """One RecallLog row: counts and timing, never the user's text."""
    from recall.models import RecallLog

    save_later(
        RecallLog(
            tenant_id=plan.user.tenant_id,
            mode=result.mode,
            degraded=result.degraded,
            k=plan.k,
            returned=len(result.items),
            lexical_hits=len(lists.lexical),
            vector_hits=len(lists.vector),
            supplement_hits=result.stats["supplement_hits"],
            latency_ms=result.stats["latency_ms"],
        )
    )


def _facts_side(plan: _Plan, windows: list[Window]) -> tuple[_Lists, list[FactHit]]:
    """The fact hits (fused, time list, category weights)."""
    if "facts" not in plan.sources:
        return _Lists(mode=plan.mode), []
    lists = _gather(plan)
    cands = _fuse(plan, lists)
    _add_time_list(plan, cands, windows, FACTS)
    if through_turns.active(plan.sources):
        # Only a candidate with a source turn can be ranked through it (most facts stored through
        # the API have none): read with the categories, so none costs no statement.
        through_turns.drop_keyed_facts(plan.user, plan.as_of, cands, plan.rows.with_source_turn(list(cands)))
    return lists, _direct_hits(plan, lists, cands)


def _episodes_side(plan: _Plan, windows: list[Window]) -> tuple[_Lists | None, list[EpisodeHit]]:
    """The episode hits (fused, time list by when they were said; no category weights)."""
    if "episodes" not in plan.sources:
        return None, []
    lists = _gather(plan, EPISODES)
    cands = _fuse(plan, lists, EPISODES)
    _add_time_list(plan, cands, windows, EPISODES)
    limit = None if plan.budget_chars is not None else plan.k * 2
    return lists, episodes.load_hits(plan.user, cands, lists, plan.as_of, limit)


def _prefer_newer(plan: _Plan, fact_hits: list[FactHit], episode_hits: list[EpisodeHit]) -> None:
    """Hybrid mode: the newer of two near-equal hits goes first, facts and episodes on one time
    scale (an episode by when it was said; a fact by when it was last said, or, as of a past
    time, since when it held)."""
    if plan.mode != "hybrid":
        return
    hits: list[FactHit | EpisodeHit] = [*fact_hits, *episode_hits]
    fusion.prefer_newer(hits, [_moment(plan, h) for h in hits], settings.MEMORY_RECALL_RECENCY_WEIGHT)
    # The episodes are ordered by their merge; the facts keep _direct_hits' order rule.
    fact_hits.sort(key=lambda h: (-h.score, -h.fact.pk))


def _newest_leaders_first(plan: _Plan, ranked: list[Hit]) -> list[Hit]:
    """Hybrid mode: of the hits that answer about as well as the best, the latest said goes first."""
    if plan.mode != "hybrid":
        return ranked
    moments = [_moment(plan, h) for h in ranked[: fusion.LEADERS_AT_MOST]]
    return fusion.newest_leaders_first(ranked, moments, settings.MEMORY_RECALL_LEADER_RATIO)


def _moment(plan: _Plan, hit: FactHit | EpisodeHit) -> datetime:
    """When a hit was said: an episode when its turn happened; a fact when it was last said, or,
    as of a past time, since when it held."""
    if isinstance(hit, EpisodeHit):
        return hit.turn.occurred_at
    return hit.fact.valid_from if plan.as_of else hit.fact.last_mentioned_at


def recall(
    *,
    user: MemoryUser,
    query: str,
    k: int = 20,
    mode: str = "hybrid",
    budget_chars: int | None = None,
    as_of: datetime | None = None,
    log: bool = True,
    sources: Iterable[str] = ("facts",),
) -> RecallResult:
    """Hybrid recall over the user's facts, and over their episodes when `sources` names them:
    one ranked list. REST `/recall` and the context block call this; the MCP and mem0
    doors call `recall.client_search.client_search`, which keeps facts and episodes apart."""
    started = time.perf_counter()
    plan = _plan(user, query, k, mode, budget_chars, as_of, sources)
    windows = _windows(plan)
    lists, hits = _facts_side(plan, windows)
    episode_lists, episode_hits = _episodes_side(plan, windows)
    _prefer_newer(plan, hits, episode_hits)
    if through_turns.active(plan.sources):
        through_turns.fold_turn_facts(plan.user, plan.base if plan.as_of is not None else None, episode_hits)
    ranked: list[Hit] = episodes.merge(hits, episode_hits) if episode_lists is not None else list(hits)
    ranked = _newest_leaders_first(plan, ranked)
    if "facts" in plan.sources:
        # Facts folded into an episode are taken too: back-fill must not bring them back.
        taken = [h for h in ranked if isinstance(h, FactHit)] + [
            f for h in ranked for f in h.folded if isinstance(f, FactHit)
        ]
        ranked += backfill.supplements(plan, taken, _load_facts)[: max(0, plan.k - len(ranked))]
    if episode_lists is not None and settings.MEMORY_RECALL_EPISODE_MERGE and settings.MEMORY_RECALL_QUOTE_SOURCES:
        # A fact stands for its turn only when they fold; unfolded, the turn is an item of its own.
        # Without a budget only the first k are returned, so only they need their turn's words.
        episodes.quote_sources(plan.user, ranked if budget_chars is not None else ranked[: plan.k], plan.as_of)
    items = fusion.pack(ranked, plan.k, budget_chars, episodes.text_length)
    if episode_lists is not None:
        lists.degraded = lists.degraded or episode_lists.degraded
        lists.stats.setdefault("episode_hits", sum(1 for h in items if h.kind == "episode"))
    stats = {
        **lists.stats,
        "time_windows": [w.label for w in windows],
        "terms": len(plan.terms),
        "dropped_terms": len(lists.dropped),
        "lexical_hits": len(lists.lexical),
        "vector_hits": len(lists.vector),
        "supplement_hits": sum(1 for h in items if "supplement" in h.signals),
        "latency_ms": (time.perf_counter() - started) * 1000,
    }
    result = RecallResult(items=items, mode=lists.mode, degraded=lists.degraded, stats=stats)
    if log:
        _log(plan, result, lists)
    return result
