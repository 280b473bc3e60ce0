"""How much other users' data moves one user's lexical ranking (issue 33, item 17).

On SQLite, FTS5's bm25() takes N (documents) and the average document length from the
whole table; only the document frequencies are the user's own (namespaced tokens,
recall.query). So another tenant's facts change a user's scores, and can reorder them.
Each LoCoMo conversation is loaded as user A alone in the store and ranked by lexical
recall, then again after `times` x its fact count of other users' facts are added in
another tenant, and the two rankings of every question are compared. On PostgreSQL N and
the average length are the user's own, so the rankings there must not move at all.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import cycle

import numpy as np

from bench import locomo, locomo_data
from recall import fts
from recall.hits import FactHit
from recall.services import recall

# What the neighbours hold: the other conversations' observations (facts of the same
# kind, so mostly N grows) or their dialogue turns (longer texts: the average length grows too).
NEIGHBOURS = {"observations": "observations", "turns": "turns"}
DEPTH = 10
CONTROL = "none (alone again)"


@dataclass
class Ranked:
    """One question's top ids and the share of its evidence they cover."""

    ids: list[int]
    recall: float


@dataclass
class Compared:
    questions: int = 0
    recall_alone: list[float] = field(default_factory=list)
    recall_with: list[float] = field(default_factory=list)
    overlap: list[float] = field(default_factory=list)
    same_order: int = 0
    same_first: int = 0
    taus: list[float] = field(default_factory=list)

    def add(self, alone: Ranked, beside: Ranked) -> None:
        self.questions += 1
        self.recall_alone.append(alone.recall)
        self.recall_with.append(beside.recall)
        self.overlap.append(len(set(alone.ids) & set(beside.ids)) / max(len(alone.ids), 1))
        self.same_order += alone.ids == beside.ids
        self.same_first += alone.ids[:1] == beside.ids[:1]
        union = list(dict.fromkeys(alone.ids + beside.ids))
        if len(union) > 1:
            # Ranks over the union of both top-10s; an id missing from a list ranks just after it.
            def ranks(ids: list[int]) -> list[int]:
                return [ids.index(i) if i in ids else len(ids) for i in union]

            self.taus.append(kendall_tau_b(ranks(alone.ids), ranks(beside.ids)))

    def row(self) -> dict:
        n = max(self.questions, 1)
        return {
            "questions": self.questions,
            "recall@10 alone": round(float(np.mean(self.recall_alone)), 4),
            "recall@10 with neighbours": round(float(np.mean(self.recall_with)), 4),
            "top-10 overlap": round(float(np.mean(self.overlap)), 4),
            "same top-10 order": round(self.same_order / n, 4),
            "same first hit": round(self.same_first / n, 4),
            "kendall tau (mean)": round(float(np.mean(self.taus)), 4) if self.taus else 1.0,
        }


def kendall_tau_b(x: list[int], y: list[int]) -> float:
    """Kendall's tau-b of two rankings with ties (every id missing from a list shares its last
    rank); 1.0 when either ranking is all one tie. Lists of at most twenty: pairs are counted."""
    concordant = discordant = tied_x = tied_y = 0
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                tied_x += 1
            elif dy == 0:
                tied_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    denominator = math.sqrt((concordant + discordant + tied_x) * (concordant + discordant + tied_y))
    return (concordant - discordant) / denominator if denominator else 1.0


def _rank_all(loaded: locomo.Loaded) -> list[Ranked]:
    [(user, provenance, qas)] = loaded.users
    ids = locomo.Ids.of(user)
    ranked = []
    for question, evidence in qas:
        result = recall(user=user, query=question, k=DEPTH, mode="lexical", log=False, sources=("facts",))
        covered: set[str] = set()
        for item in locomo.answer_items(result):
            covered |= locomo.covered_by(item, provenance, loaded.episodes, ids)
        fact_pks = [hit.fact.pk for hit in result.items if isinstance(hit, FactHit)]  # sources: facts only
        ranked.append(Ranked(fact_pks, len(evidence & covered) / len(evidence)))
    return ranked


def _neighbours(conversations: list[tuple[str, dict]], name: str, kind: str, facts: int) -> list[tuple[str, dict]]:
    """Other conversations, each loaded again as another user, until they hold `facts` facts."""
    others = [(n, c) for n, c in conversations if n != name] or conversations
    chosen, total = [], 0
    for i, (other, conv) in enumerate(cycle(others)):
        if total >= facts:
            break
        chosen.append((f"{other}-n{i}", conv))
        total += len(locomo_data.corpus_items(conv, kind))
    return chosen


def measure(conversations: list[tuple[str, dict]], times: int, kinds: list[str], progress=None) -> dict[str, dict]:
    """{neighbour kind: the comparison over every question of every conversation}."""
    if fts.total_rows():
        raise ValueError("the store's index is not empty: run this on a fresh database (see docs/recall.md)")
    compared = {kind: Compared() for kind in [*kinds, CONTROL]}
    for name, conv in conversations:
        alone = locomo.load([(name, conv)], "observations", vectors="skip")
        try:
            before = _rank_all(alone)
            facts = len(alone.users[0][1])
            for kind in kinds:
                others = locomo.load(_neighbours(conversations, name, kind, times * facts), kind, vectors="skip")
                try:
                    for a, b in zip(before, _rank_all(alone), strict=True):
                        compared[kind].add(a, b)
                finally:
                    locomo.unload(others)
                if progress:
                    progress(f"{name} beside {times}x {kind}")
            # The control: alone again once the neighbours are gone, the same ranking to the id.
            for a, b in zip(before, _rank_all(alone), strict=True):
                compared[CONTROL].add(a, b)
        finally:
            locomo.unload(alone)
    return {kind: c.row() for kind, c in compared.items()}
