"""recall(): hybrid recall over one user's facts (SPEC 5).

lexical (FTS5 BM25 over the user's namespaced terms) and vector (exact cosine
scan of the user's vectors) lists are re-ranked over their union on both
signals, fused by weighted RRF with a third list of facts from a time the query
names (or by the linear blend), weighted by category, back-filled by graph and
recency supplements that never outrank a direct hit, and packed under a
character budget.
`as_of` answers from the facts valid at that time instead of the live index.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from facts.models import Fact, FactEntity, MemoryUser
from memory_service.errors import Rejected
from recall import fts, fusion, vec
from recall.dates import windows as query_windows
from recall.embeddings import EmbedderError, embed_query, get_embedder
from recall.index import documents
from recall.query import MAX_QUERY_CHARS, content_words, stem, words

MODES = ("hybrid", "lexical", "vector")
MAX_K = 200


@dataclass
class RecallHit:
    fact: Fact
    score: float
    signals: dict = field(default_factory=dict)


@dataclass
class RecallResult:
    items: list[RecallHit]
    mode: str
    degraded: bool = False
    stats: dict = field(default_factory=dict)


def _universal_terms(terms: list[str], freqs: dict[str, int], total: int) -> set[str]:
    """Terms in so large a share of the user's facts that they rank nothing (names, "user")."""
    if total < settings.MEMORY_RECALL_UNIVERSAL_MIN_FACTS:
        return set()
    limit = settings.MEMORY_RECALL_UNIVERSAL_SHARE * total
    universal = {t for t in terms if freqs.get(t, 0) > limit}
    # Keep the query answerable when every term is common.
    return universal if len(universal) < len(terms) else set()


def _lexical_live(user_id: int, terms: list[str], limit: int) -> tuple[list[tuple[int, float]], list[str]]:
    if not terms:
        return [], []
    freqs = fts.doc_frequencies(user_id, terms)
    present = [t for t in terms if freqs.get(t, 0) > 0]
    dropped = _universal_terms(present, freqs, fts.user_doc_count(user_id))
    kept = [t for t in present if t not in dropped]
    return _relative_floor(fts.search(user_id, kept, limit)), sorted(dropped)


def _relative_floor(hits: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """Drop BM25 hits far below the best one: with OR-ed terms the tail matches one weak word."""
    share = settings.MEMORY_RECALL_LEXICAL_FLOOR
    if share <= 0 or not hits:
        return hits
    best = -hits[0][1]
    return [(fid, score) for fid, score in hits if -score >= share * best]


def _bm25_python(docs: dict[int, tuple[list[str], list[str]]], terms: list[str], limit: int):
    """BM25 (k1 1.2, b 0.75) over in-memory documents, for point-in-time recall."""
    if not docs or not terms:
        return []
    stems = list(dict.fromkeys(stem(t) for t in terms))
    tfs = {}
    for fid, (body, context) in docs.items():
        counts = Counter(stem(w) for w in body)
        for w in context:
            counts[stem(w)] += fts.CONTEXT_WEIGHT
        tfs[fid] = (counts, len(body) + fts.CONTEXT_WEIGHT * len(context))
    n = len(docs)
    avg = sum(length for _, length in tfs.values()) / n or 1.0
    df = {s: sum(1 for counts, _ in tfs.values() if counts.get(s)) for s in stems}
    if n >= settings.MEMORY_RECALL_UNIVERSAL_MIN_FACTS:
        common = {s for s in stems if df[s] > settings.MEMORY_RECALL_UNIVERSAL_SHARE * n}
        if len(common) < len([s for s in stems if df[s]]):
            stems = [s for s in stems if s not in common]
    scored = []
    for fid, (counts, length) in tfs.items():
        score = 0.0
        for s in stems:
            tf = counts.get(s, 0)
            if tf:
                idf = math.log(1 + (n - df[s] + 0.5) / (df[s] + 0.5))
                score += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / avg))
        if score > 0:
            scored.append((fid, -score))  # lower is better, like FTS5 bm25()
    scored.sort(key=lambda pair: pair[1])
    return _relative_floor(scored[:limit])


def _cosine_python(query_vector, vectors: dict, limit: int):
    ranked = sorted(((fid, 1.0 - float(query_vector @ v)) for fid, v in vectors.items()), key=lambda p: p[1])
    return ranked[:limit]


def _vectors_as_of(facts: list[Fact], docs: dict) -> dict:
    """Stored vectors where the fact is still indexed; retired facts are embedded now."""
    stored = vec.vectors([f.pk for f in facts])
    missing = [f for f in facts if f.pk not in stored]
    if missing:
        matrix = get_embedder().embed([docs[f.pk].embed_text for f in missing])
        stored.update({f.pk: row for f, row in zip(missing, matrix, strict=True)})
    return stored


class _LexicalSide:
    """BM25 over the user's live index, or over a point-in-time snapshot (`docs`)."""

    def __init__(self, user_id: int, terms: list[str], docs: dict | None) -> None:
        self.user_id, self.terms, self.docs = user_id, terms, docs
        self.dropped: list[str] = []
        self.known: dict[int, float] = {}  # every score read, beyond the list's own depth

    def top(self, limit: int, scan: int) -> list[tuple[int, float]]:
        """The best `limit` hits; the scores of the best `scan` are kept for rank()."""
        if self.docs is not None:
            hits = _bm25_python(self.docs, self.terms, max(limit, scan))
        else:
            hits, self.dropped = _lexical_live(self.user_id, self.terms, max(limit, scan))
        self.known = dict(hits)
        return hits[:limit]

    def rank(self, fact_ids: list[int]) -> list[tuple[int, float]]:
        """These facts' BM25 scores, best first (facts matching no query word, or beyond the
        scanned depth, are left out: their RRF share would be next to nothing)."""
        scores = {fid: self.known[fid] for fid in dict.fromkeys(fact_ids) if fid in self.known}
        return sorted(scores.items(), key=lambda pair: (pair[1], pair[0]))


class _VectorSide:
    """Cosine distances to the query over the user's stored vectors, or a snapshot's."""

    def __init__(self, user_id: int, query_vector, snapshot: list[Fact] | None, docs: dict) -> None:
        self.user_id, self.query_vector = user_id, query_vector
        self.model = get_embedder().model_name
        self.vectors = _vectors_as_of(snapshot, docs) if snapshot is not None else None
        self.known: dict[int, float] = {}

    def _floor(self, pairs: list[tuple[int, float]]) -> list[tuple[int, float]]:
        floor = settings.MEMORY_RECALL_MIN_SIMILARITY
        return [(fid, dist) for fid, dist in pairs if 1.0 - dist >= floor]

    def top(self, limit: int, scan: int) -> list[tuple[int, float]]:
        """The nearest `limit` facts; the distances of the nearest `scan` are kept for rank()."""
        if self.vectors is not None:
            hits = _cosine_python(self.query_vector, self.vectors, max(limit, scan))
        else:
            hits = vec.search(self.user_id, self.query_vector, max(limit, scan), self.model)
        hits = self._floor(hits)
        self.known = dict(hits)
        return hits[:limit]

    def rank(self, fact_ids: list[int]) -> list[tuple[int, float]]:
        """These facts' distances, nearest first (a fact with no vector yet, or beyond the
        scanned depth, is left out)."""
        found = {fid: self.known[fid] for fid in dict.fromkeys(fact_ids) if fid in self.known}
        return sorted(found.items(), key=lambda pair: (pair[1], pair[0]))


def _time_list(base, cands: dict, windows: list, depth: int) -> list[int]:
    """Facts from a time the query names (event_time when known, else valid_from): candidates
    first, by fused score, then the most recent others (from that day but matching no word)."""
    moments = {
        fid: event or valid
        for fid, event, valid in base.filter(pk__in=list(cands)).values_list("pk", "event_time", "valid_from")
    }
    inside = [fid for fid, t in moments.items() if any(w.contains(t) for w in windows)]
    inside.sort(key=lambda fid: (-cands[fid].score, -fid))
    coarse = Q()
    for w in windows:
        if w.start is not None:
            when = {"gte": w.start, "lt": w.end}
        else:  # "in June", "May 5th": that month of any year (and its neighbours, for the day slack)
            months = {w.month} if w.day is None else {w.month, w.month % 12 + 1, (w.month - 2) % 12 + 1}
            when = {"month__in": sorted(months)}
        coarse |= Q(**{f"event_time__{op}": v for op, v in when.items()})
        coarse |= Q(event_time__isnull=True, **{f"valid_from__{op}": v for op, v in when.items()})
    others = base.filter(coarse).exclude(pk__in=list(cands)).order_by("-valid_from", "-pk")
    for fid, event, valid in others.values_list("pk", "event_time", "valid_from")[: depth * 4]:
        if len(inside) >= depth:
            break
        if any(w.contains(event or valid) for w in windows):
            inside.append(fid)
    return inside[:depth]


def _graph_supplement(user: MemoryUser, terms: list[str], seeds: list[int], exclude: set[int], base) -> list[tuple]:
    """Facts one hop away: tagged with an entity named in the query or tagged on a top hit."""
    entity_ids = set(FactEntity.objects.filter(fact_id__in=seeds).values_list("entity_id", flat=True))
    if terms:
        query_stems = {stem(t) for t in terms}
        for eid, name in user.entities.values_list("id", "name"):
            if {stem(w) for w in words(name)} & query_stems:
                entity_ids.add(eid)
    if not entity_ids:
        return []
    rows = (
        FactEntity.objects.filter(entity_id__in=entity_ids, fact__in=base)
        .exclude(fact_id__in=exclude)
        .select_related("entity")
        .order_by("-fact__last_mentioned_at")
    )
    found: dict[int, str] = {}
    for row in rows[:200]:
        found.setdefault(row.fact_id, row.entity.name)
    return list(found.items())


def recall(
    *,
    user: MemoryUser,
    query: str,
    k: int = 20,
    mode: str = "hybrid",
    budget_chars: int | None = None,
    as_of: datetime | None = None,
    log: bool = True,
) -> RecallResult:
    started = time.perf_counter()
    if mode not in MODES:
        raise Rejected("mode", f"mode must be one of {', '.join(MODES)}.")
    if not 1 <= int(k) <= MAX_K:
        raise Rejected("k", f"k must be between 1 and {MAX_K}.")
    if budget_chars is not None and budget_chars < 1:
        raise Rejected("budget_chars", "budget_chars must be a positive number of characters.")
    query = (query or "")[:MAX_QUERY_CHARS]
    terms = content_words(query)
    depth = max(settings.MEMORY_RECALL_CANDIDATES, k)
    stats: dict = {}
    degraded = False
    used_mode = mode

    if as_of is not None:
        base = Fact.objects.valid_at(as_of).filter(user=user)
        snapshot = list(base.prefetch_related("entity_tags__entity"))
        indexed = documents(snapshot)
        docs = {fid: (words(d.body), words(d.context)) for fid, d in indexed.items()}
    else:
        base = Fact.objects.live().filter(user=user)
        snapshot, docs, indexed = None, {}, {}
    # Full-information fusion (below) needs each side's scores beyond its own top
    # `depth`: one deeper read of each side gives them, no second query.
    full_fusion = mode == "hybrid" and settings.MEMORY_RECALL_FUSION == "rrf" and settings.MEMORY_RECALL_FULL_FUSION
    scan = max(depth, settings.MEMORY_RECALL_RESCORE_DEPTH) if full_fusion else depth
    lexical_side = _LexicalSide(user.pk, terms, docs if snapshot is not None else None)
    lexical = lexical_side.top(depth, scan) if mode != "vector" else []

    vector_side = None
    vector: list[tuple[int, float]] = []
    if mode in ("hybrid", "vector") and query.strip():
        try:
            vector_side = _VectorSide(user.pk, embed_query(query, get_embedder()), snapshot, indexed)
            vector = vector_side.top(depth, scan)
        except EmbedderError as exc:
            degraded = True
            stats["embedder_error"] = str(exc)[:200]
            if mode == "vector":
                used_mode = "lexical"
                lexical = lexical_side.top(depth, depth)
    dropped = lexical_side.dropped

    if full_fusion and vector_side is not None:
        # Full-information fusion: every candidate of either list is ranked on
        # both sides, so a fact 3rd by meaning and 80th by words still gets its
        # lexical evidence counted (and vice versa).
        union = [fid for fid, _ in lexical] + [fid for fid, _ in vector]
        lexical = lexical_side.rank(union)
        vector = vector_side.rank(union)

    if settings.MEMORY_RECALL_FUSION == "linear":
        now = timezone.now()
        ids = {fid for fid, _ in lexical} | {fid for fid, _ in vector}
        ages = dict(base.filter(pk__in=ids).values_list("pk", "last_mentioned_at"))
        recency = {
            fid: fusion.recency_weight((now - t).total_seconds(), settings.MEMORY_RECALL_HALF_LIFE_DAYS)
            for fid, t in ages.items()
        }
        cands = fusion.linear(lexical, vector, recency)
    else:
        cands = fusion.rrf(
            [
                ("lexical", settings.MEMORY_RECALL_LEXICAL_WEIGHT, [fid for fid, _ in lexical]),
                ("vector", settings.MEMORY_RECALL_VECTOR_WEIGHT, [fid for fid, _ in vector]),
            ],
            damping={
                "lexical": fusion.relative_scores([-score for _, score in lexical], [fid for fid, _ in lexical]),
                "vector": fusion.relative_scores([1.0 - d for _, d in vector], [fid for fid, _ in vector]),
            }
            if settings.MEMORY_RECALL_SCORE_DAMPING
            else None,
        )
    # A time the query names is a third fused list (hybrid only: lexical and
    # vector modes stay single-signal rankings).
    windows = []
    if mode == "hybrid" and settings.MEMORY_RECALL_TIME_WEIGHT > 0 and settings.MEMORY_RECALL_FUSION == "rrf":
        windows = query_windows(query, as_of or timezone.now())
    if windows:
        in_window = _time_list(base, cands, windows, depth)
        fusion.add_list(cands, "time", settings.MEMORY_RECALL_TIME_WEIGHT, in_window)
    stats["time_windows"] = [w.label for w in windows]
    lex_scores = dict(lexical)
    vec_dists = dict(vector)

    # The base queryset re-checks ownership and liveness (or validity at as_of):
    # an index row that lags behind the write path can never leak a fact.
    categories = dict(base.filter(pk__in=list(cands)).values_list("pk", "category"))
    cands = {fid: c for fid, c in cands.items() if fid in categories}
    fusion.apply_category_weights(cands, categories)
    for fid, cand in cands.items():
        if fid in lex_scores:
            cand.signals["lexical_score"] = round(-lex_scores[fid], 4)
        if fid in vec_dists:
            cand.signals["vector_similarity"] = round(1.0 - vec_dists[fid], 4)
    direct = sorted(cands.values(), key=lambda c: (-c.score, -c.fact_id))
    # Only what can be returned is loaded as objects: k, or more when packing may skip some.
    keep = direct if budget_chars is not None else direct[: int(k)]
    facts = base.filter(pk__in=[c.fact_id for c in keep]).select_related("user").in_bulk()
    hits = [RecallHit(facts[c.fact_id], c.score, c.signals) for c in keep if c.fact_id in facts]

    # Supplements back-fill only: they are considered when direct hits do not
    # fill k, and score strictly below the weakest direct hit.
    supplements = 0
    if len(hits) < k:
        floor = min((h.score for h in hits), default=None)
        taken = {h.fact.pk for h in hits}
        extra: list[tuple[int, dict]] = []
        if terms or hits:
            for fid, entity in _graph_supplement(user, terms, [h.fact.pk for h in hits[:5]], taken, base):
                if len(hits) + len(extra) >= k:
                    break
                extra.append((fid, {"supplement": "graph", "via_entity": entity}))
                taken.add(fid)
        need = k - len(hits) - len(extra)
        if need > 0:
            order = "-valid_from" if as_of is not None else "-last_mentioned_at"
            for fid in base.exclude(pk__in=taken).order_by(order, "-pk").values_list("pk", flat=True)[:need]:
                extra.append((fid, {"supplement": "recent"}))
        extra_facts = {f.pk: f for f in base.filter(pk__in=[fid for fid, _ in extra]).select_related("user")}
        scores = fusion.supplement_scores(floor, len(extra))
        for (fid, signals), score in zip(extra, scores, strict=True):
            if fid in extra_facts:
                hits.append(RecallHit(extra_facts[fid], score, signals))
                supplements += 1

    items = fusion.pack(hits, int(k), budget_chars, lambda h: len(h.fact.text))
    latency_ms = (time.perf_counter() - started) * 1000
    stats.update(
        {
            "terms": len(terms),
            "dropped_terms": len(dropped),
            "lexical_hits": len(lexical),
            "vector_hits": len(vector),
            "supplement_hits": sum(1 for h in items if "supplement" in h.signals),
            "latency_ms": latency_ms,
        }
    )
    if log:
        from recall.models import RecallLog

        RecallLog.objects.create(
            tenant_id=user.tenant_id,
            mode=used_mode,
            degraded=degraded,
            k=int(k),
            returned=len(items),
            lexical_hits=len(lexical),
            vector_hits=len(vector),
            supplement_hits=stats["supplement_hits"],
            latency_ms=latency_ms,
        )
    return RecallResult(items=items, mode=used_mode, degraded=degraded, stats=stats)
