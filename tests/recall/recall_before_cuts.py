"""Recall's reads as they were before the statement cuts of 2026-11-28 (issue 36), kept to check
that the cuts change no answer (tests/recall/test_recall_statements.py): each function is the
code it replaced, one statement per read as then."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import connection

from facts.models import Fact
from recall import backfill, episodes, fts, fusion, graph, services, through_turns, time_list
from recall.hits import FactHit
from recall.tables import EPISODES, FACTS


def add_time_list(plan, cands, windows, tables) -> None:
    if not windows:
        return
    if tables is FACTS:
        ids = time_list.in_windows(plan.base, cands, windows, plan.depth, time_list.FACT_MOMENT)
    else:
        said = episodes.said_by(plan.user, plan.as_of)
        ids = time_list.in_windows(said, cands, windows, plan.depth, time_list.EPISODE_MOMENT)
    fusion.add_list(cands, "time", settings.MEMORY_RECALL_TIME_WEIGHT, ids)


def direct_hits(plan, lists, cands) -> list[FactHit]:
    categories = dict(plan.base.filter(pk__in=list(cands)).values_list("pk", "category"))
    cands = {fid: c for fid, c in cands.items() if fid in categories}
    fusion.apply_category_weights(cands, categories)
    lex_scores, vec_dists = dict(lists.lexical), dict(lists.vector)
    for fid, cand in cands.items():
        if fid in lex_scores:
            cand.signals["lexical_score"] = round(-lex_scores[fid], 4)
        if fid in vec_dists:
            cand.signals["vector_similarity"] = round(1.0 - vec_dists[fid], 4)
    direct = sorted(cands.values(), key=lambda c: (-c.score, -c.fact_id))
    keep = direct if plan.budget_chars is not None else direct[: plan.k]
    facts = services._load_facts(plan, [c.fact_id for c in keep])
    return [FactHit(facts[c.fact_id], c.score, c.signals) for c in keep if c.fact_id in facts]


def supplements(plan, hits, load) -> list[FactHit]:
    if len(hits) >= plan.k:
        return []
    floor = min((h.score for h in hits), default=None)
    taken = {h.fact.pk for h in hits}
    picks: list[tuple[int, dict[str, Any]]] = []
    if plan.terms or hits:
        seeds = [h.fact.pk for h in hits[:5]]
        for fid, entity in graph.neighbours(plan.user, plan.terms, seeds, taken, plan.base):
            if len(hits) + len(picks) >= plan.k:
                break
            picks.append((fid, {"supplement": "graph", "via_entity": entity}))
            taken.add(fid)
    need = plan.k - len(hits) - len(picks)
    if need > 0:
        order = "-valid_from" if plan.as_of is not None else "-last_mentioned_at"
        for fid in plan.base.exclude(pk__in=taken).order_by(order, "-pk").values_list("pk", flat=True)[:need]:
            picks.append((fid, {"supplement": "recent"}))
    facts = services._load_facts(plan, [fid for fid, _ in picks])
    scores = fusion.supplement_scores(floor, len(picks))
    return [
        FactHit(facts[fid], score, signals) for (fid, signals), score in zip(picks, scores, strict=True) if fid in facts
    ]


def facts_side(plan, windows):
    if "facts" not in plan.sources:
        return services._Lists(mode=plan.mode), []
    lists = services._gather(plan)
    cands = services._fuse(plan, lists)
    services._add_time_list(plan, cands, windows, FACTS)
    if through_turns.active(plan.sources) and cands:
        keyed = dict(
            Fact.objects.live()
            .filter(
                user=plan.user, pk__in=list(cands), source_turn__in=episodes.said_by(plan.user, plan.as_of).values("pk")
            )
            .values_list("pk", "source_turn_id")
        )
        indexed = fts.indexed_hashes(set(keyed.values()), EPISODES)
        for fact_id, turn_id in keyed.items():
            if turn_id in indexed:
                del cands[fact_id]
    return lists, services._direct_hits(plan, lists, cands)


def fold_turn_facts(user, base, episode_hits) -> None:
    base = Fact.objects.live().filter(user=user) if base is None else base  # what plan.base is without as_of
    produced = {fact.pk: fact for hit in episode_hits for fact in hit.facts}
    if not produced:
        return
    allowed = set(base.filter(pk__in=list(produced)).values_list("pk", flat=True))
    for hit in episode_hits:
        for fact in hit.facts:
            if fact.pk in allowed:
                fact.user = user
                hit.folded.append(FactHit(fact, hit.score, {"through_turn": True}))


def sqlite_indexed_hashes(ids, t=FACTS, *, users=None) -> dict[int, str]:
    found: dict[int, str] = {}
    with connection.cursor() as cursor:
        for fid in [int(i) for i in ids]:
            cursor.execute(f"SELECT text_hash FROM {t.doc} WHERE {t.id} = %s", [fid])
            row = cursor.fetchone()
            if row:
                found[fid] = row[0]
    return found


def gather(plan, tables=FACTS):
    """recall.services._gather as it was: the embedder switch's row read for each side's vectors."""
    from recall import slots
    from recall.embeddings import EmbedderError, embed_query, embedder_for
    from recall.sides import LexicalSide, VectorSide

    lists = services._Lists(mode=plan.mode)
    snapshot = plan.snapshot if tables is FACTS else None
    lexical_side = LexicalSide(plan.user.pk, plan.terms, snapshot, tables)
    if plan.mode != "vector":
        lists.lexical = lexical_side.top(plan.depth, plan.scan)
    vector_side = None
    if plan.mode in ("hybrid", "vector") and plan.query.strip():
        try:
            live = slots.state()
            query_vector = embed_query(plan.query, embedder_for(live.live_model), tenant_id=plan.user.tenant_id)
            vector_side = VectorSide(plan.user.pk, query_vector, snapshot, tables, live)
            lists.vector = vector_side.top(plan.depth, plan.scan)
        except EmbedderError as exc:
            lists.degraded = True
            lists.stats["embedder_error"] = str(exc)[:200]
            if plan.mode == "vector":
                lists.mode = "lexical"
                lists.lexical = lexical_side.top(plan.depth, plan.depth)
    lists.dropped = lexical_side.dropped
    if plan.full_fusion and vector_side is not None:
        union = [fid for fid, _ in lists.lexical] + [fid for fid, _ in lists.vector]
        lists.lexical = lexical_side.rank(union)
        lists.vector = vector_side.rank(union)
    return lists


def put_back(monkeypatch) -> None:
    """Recall reads as it did before the cuts, for the rest of the test."""
    from recall.engines import current

    monkeypatch.setattr(services, "_add_time_list", add_time_list)
    monkeypatch.setattr(services, "_direct_hits", direct_hits)
    monkeypatch.setattr(backfill, "supplements", supplements)
    monkeypatch.setattr(services, "_facts_side", facts_side)
    monkeypatch.setattr(services, "_gather", gather)
    monkeypatch.setattr(through_turns, "fold_turn_facts", fold_turn_facts)
    if connection.vendor == "sqlite":
        monkeypatch.setattr(current().fts, "indexed_hashes", sqlite_indexed_hashes)
