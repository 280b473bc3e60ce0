"""LoCoMo-format retrieval evaluation (docs/api.md `eval_recall`).

Each conversation becomes one memory user of a throwaway tenant. Corpus
`observations`: every session_N_observation item is a fact whose provenance is
its evidence dia_ids and whose source excerpt is the text of those turns (what
an extractor keeps as the fact's source). Corpus `turns`: every turn is a fact
"Speaker: text" (plus the image caption). The dialogue is also stored as Turn
rows and each fact names its source turn, as extraction does, so the index
adds the exchange around it (the message answered, the reply). QA items of
categories 1-4 are the queries. Corpus `both`: the observations as facts and
every turn as an episode of the same user (docs/design.md §10), recalled with
sources facts and episodes; an episode covers its own dialogue id.

What is scored is REST's answer (recall.answer), item for item: an item covers
the dialogue ids of the words it returns, a fact its evidence and the turn it
quotes, an episode its turn and the facts folded into it (docs/recall.md).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import accumulate

import numpy as np
from django.db import transaction

from bench.locomo_data import conversation_turns, corpus_items, question_categories, questions
from core.stats import rounded
from facts.models import Fact, MemoryUser, Tenant, Turn, TurnState
from facts.services import text_hash
from recall import answer, episode_index, index, indexer
from recall.embeddings import query_cache
from recall.schemas import RecallItemOut
from recall.services import RecallResult, recall


@dataclass
class Loaded:
    tenant: Tenant | None
    users: list[tuple[MemoryUser, dict[int, set[str]], list[tuple[str, set[str]]]]] = field(default_factory=list)
    episodes: dict[int, set[str]] = field(default_factory=dict)  # Turn pk -> its dialogue id (corpus both)
    categories: dict[int, list[str]] = field(default_factory=dict)  # user pk -> each question's category


def load(
    conversations,
    corpus: str,
    *,
    with_context: bool = True,
    progress: Callable | None = None,
    embedder=None,
    vectors: str = "here",
) -> Loaded:
    """The conversations as users of a new tenant, indexed; vectors="skip" writes the words only
    (recall.indexer.index_items), for measurements of lexical recall."""
    tenant = Tenant.objects.create(name=f"eval-{corpus}-{uuid.uuid4().hex[:8]}")
    loaded = Loaded(tenant)
    for name, conv in conversations:
        items = corpus_items(conv, "observations" if corpus == "both" else corpus, with_context=with_context)
        with transaction.atomic():
            user = MemoryUser.objects.create(tenant=tenant, external_id=f"locomo-{name}")
            specs = conversation_turns(conv) if with_context or corpus == "both" else []
            turn_rows = _turn_rows(tenant, user, specs)
            facts = _fact_rows(tenant, user, items, {t.turn_id: t for t in turn_rows})
        provenance = {f.pk: item.dia_ids for f, item in zip(facts, items, strict=True)}
        ids = list(provenance)
        for start in range(0, len(ids), 256):
            indexer.index_items(ids[start : start + 256], [], vectors=vectors, embedder=embedder)
            if progress:
                progress(len(ids[start : start + 256]))
        if corpus == "both":
            _index_episodes(loaded, turn_rows, embedder, vectors)
        loaded.users.append((user, provenance, questions(conv)))
        loaded.categories[user.pk] = question_categories(conv)
    return loaded


def _turn_rows(tenant: Tenant, user: MemoryUser, specs) -> list[Turn]:
    """The conversation's turns, processed as of when they were said."""
    rows = [
        Turn(
            tenant=tenant,
            user=user,
            session_id=spec.session_id,
            turn_id=spec.dia_id,
            user_input=spec.user_input,
            assistant_response=spec.reply,
            occurred_at=spec.when,
            created_at=spec.when,
            state=TurnState.DONE,
        )
        for spec in specs
    ]
    return Turn.objects.bulk_create(rows, batch_size=500)


def _fact_rows(tenant: Tenant, user: MemoryUser, items, by_dia: dict) -> list[Fact]:
    """One fact per corpus item, its dialogue ids kept for scoring and its turn linked."""
    rows = [
        Fact(
            tenant=tenant,
            user=user,
            text=item.text[:2000],
            text_hash=text_hash(item.text),
            source_excerpt=item.context[:1000],
            source_turn=by_dia.get(item.turn),
            valid_from=item.when,
            created_at=item.when,
            updated_at=item.when,
            last_mentioned_at=item.when,
            value_json={"dia_ids": sorted(item.dia_ids)},
        )
        for item in items
    ]
    return Fact.objects.bulk_create(rows, batch_size=500)


def _index_episodes(loaded: Loaded, turns: list[Turn], embedder, vectors: str = "here") -> None:
    """Every turn as an episode, as the service indexes a turn processed `done`."""
    for start in range(0, len(turns), 256):
        indexer.index_items([], [t.pk for t in turns[start : start + 256]], vectors=vectors, embedder=embedder)
    loaded.episodes.update({t.pk: {t.turn_id} for t in turns})


def unload(loaded: Loaded) -> None:
    with transaction.atomic():
        for user, _, _ in loaded.users:
            index.erase_user(user.pk)
            episode_index.erase_user(user.pk)
        if loaded.tenant is not None:
            loaded.tenant.delete()


@dataclass
class Ids:
    """One user's fact and turn rows by the ids REST's answer names them with."""

    fact_pk: dict[uuid.UUID, int]
    turn_pk: dict[str, int]

    @classmethod
    def of(cls, user: MemoryUser) -> Ids:
        return cls(
            dict(Fact.objects.filter(user=user).values_list("uuid", "pk")),
            dict(Turn.objects.filter(user=user).values_list("turn_id", "pk")),
        )


def answer_items(result) -> list[RecallItemOut]:
    """REST's answer to a recall, item for item: built by the code `/recall` returns (recall.answer)."""
    return list(answer.with_sources(result).items)


def covered_by(
    item: RecallItemOut, provenance: dict[int, set[str]], episodes: dict[int, set[str]], ids: Ids
) -> set[str]:
    """The dialogue ids one item of REST's answer covers, by the words it returns: a fact its evidence
    and the turn it quotes, an episode its turn and the evidence of the facts folded into it."""
    if item.kind == "fact" and item.fact is not None:
        own = set(provenance.get(ids.fact_pk.get(item.fact.id, -1), set()))
        if item.quote is not None:
            own |= episodes.get(ids.turn_pk.get(item.quote.turn_id, -1), set())
        return own
    own = set(episodes.get(ids.turn_pk.get(item.episode.turn_id, -1), set())) if item.episode else set()
    for fact in item.folded_facts:
        own |= provenance.get(ids.fact_pk.get(fact.id, -1), set())
    return own


def ask(user: MemoryUser, question: str, mode: str, k: int, sources: tuple[str, ...]) -> RecallResult:
    """The recall REST's `/recall` runs for this question (k, mode, sources). "recency": the most
    recent facts whatever the question (recall of an empty query), the baseline a recency-led
    strategy for users with few facts would have to beat."""
    if mode == "recency":
        return recall(user=user, query="", k=k, log=False, sources=sources)
    return recall(user=user, query=question, k=k, mode=mode, log=False, sources=sources)


def evaluate(
    loaded: Loaded,
    modes: list[str],
    ks: list[int],
    progress: Callable | None = None,
    time_embedding: bool = True,
    sources: tuple[str, ...] = ("facts",),
    per_question: list[dict] | None = None,
) -> dict:
    """Mean recall@k, hit@10 and latency per mode, overall and per category; with `per_question`,
    one record per question and mode is appended to it (question_record)."""
    results: dict[str, dict] = {}
    depth = max(ks + [10])
    for mode in modes:
        recall_at: dict[int, list[float]] = {k: [] for k in ks}
        hit10, latencies, kinds = [], [], []
        for user, provenance, qas in loaded.users:
            ids = Ids.of(user)
            categories = loaded.categories.get(user.pk) or ["-"] * len(qas)
            kinds += categories
            for (question, evidence), category in zip(qas, categories, strict=True):
                if time_embedding:
                    query_cache.clear()  # latency includes the query embedding
                started = time.perf_counter()
                result = ask(user, question, mode, depth, sources)
                latencies.append((time.perf_counter() - started) * 1000)
                per_item = [covered_by(item, provenance, loaded.episodes, ids) for item in answer_items(result)]
                covered_at: list[set[str]] = list(accumulate(per_item, lambda got, more: got | more))
                if per_question is not None:
                    per_question.append(question_record(mode, user, category, question, evidence, per_item))
                for k in ks:
                    got = covered_at[min(k, len(covered_at)) - 1] if covered_at else set()
                    recall_at[k].append(len(evidence & got) / len(evidence))
                got10 = covered_at[min(10, len(covered_at)) - 1] if covered_at else set()
                hit10.append(1.0 if evidence & got10 else 0.0)
                if progress:
                    progress(1)
        row = _row(recall_at, hit10)
        row["p50_ms"] = rounded(latencies, 0.50, 2) or 0.0
        row["p95_ms"] = rounded(latencies, 0.95, 2) or 0.0
        row["by_category"] = {
            name: _row({k: [v[i] for i in at] for k, v in recall_at.items()}, [hit10[i] for i in at])
            | {"questions": len(at)}
            for name in sorted(set(kinds))
            if (at := [i for i, kind in enumerate(kinds) if kind == name])
        }
        results[mode] = row
    return results


def question_record(
    mode: str, user: MemoryUser, category: str, question: str, evidence: set[str], per_item: list[set[str]]
) -> dict:
    """One question as `eval_recall --per-question` writes it: the rank of the first item covering
    each evidence turn (None: no item of the answer does) and what each item covers, in rank order;
    the misses at k are the evidence turns whose first rank is None or above k."""
    first = {d: next((i for i, got in enumerate(per_item, start=1) if d in got), None) for d in sorted(evidence)}
    return {
        "mode": mode,
        "user": user.external_id,
        "category": category,
        "question": question,
        "first_rank": first,
        "items": [sorted(got) for got in per_item],
    }


def _row(recall_at: dict[int, list[float]], hit10: list[float]) -> dict:
    """Mean recall@k and hit@10 of a set of questions."""
    row = {f"recall@{k}": round(float(np.mean(v)), 4) if v else 0.0 for k, v in recall_at.items()}
    row["hit@10"] = round(float(np.mean(hit10)), 4) if hit10 else 0.0
    return row


def question_count(loaded: Loaded) -> int:
    return sum(len(qas) for _, _, qas in loaded.users)


# The release ablation: each row adds retrieval ideas to the row before; the
# shipped defaults are the command's main results, printed as the last row.
_NEW = {"MEMORY_RECALL_FULL_FUSION": False, "MEMORY_RECALL_TIME_WEIGHT": 0.0, "MEMORY_RECALL_EXCHANGE_CHARS": 0}
_OFF = {**_NEW, "MEMORY_RECALL_EMBED_CONTEXT": False, "MEMORY_RECALL_SCORE_DAMPING": False}
ABLATION: list[tuple[str, bool, dict]] = [
    ("naive: text only, all content words, RRF 3/3", False, {**_OFF, "MEMORY_RECALL_UNIVERSAL_SHARE": 2.0}),
    ("+ drop words in >30% of a user's facts, + source excerpt in BM25", True, _OFF),
    ("+ source excerpt in the embedded text", True, {**_NEW, "MEMORY_RECALL_SCORE_DAMPING": False}),
    ("+ score-damped RRF", True, _NEW),
    ("+ full-information fusion", True, {"MEMORY_RECALL_TIME_WEIGHT": 0.0, "MEMORY_RECALL_EXCHANGE_CHARS": 0}),
    ("+ time list for dates the query names", True, {"MEMORY_RECALL_EXCHANGE_CHARS": 0}),
]
DEFAULT_ROW = "+ the exchange around the source turn indexed (the defaults)"

# Corpus `both`: the same loaded user recalled from each source, and both without the fold.
SOURCE_ABLATION: list[tuple[str, tuple[str, ...], dict]] = [
    ("facts only (observations)", ("facts",), {}),
    ("episodes only (turns)", ("episodes",), {}),
    ("both, fused by score, no fold", ("facts", "episodes"), {"MEMORY_RECALL_EPISODE_MERGE": False}),
    ("both, a fact and its source turn folded (the default)", ("facts", "episodes"), {}),
]
