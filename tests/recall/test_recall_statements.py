"""Fewer statements per recall (docs/measurements.md §13): on PostgreSQL each is a round trip.

The lexical side is one statement there (document frequencies, the user's document count,
the universal-term rule and BM25 together: recall/engines/postgresql/fts.py
`search_leaving_universal`), and the graph back-fill reads the user's entities and the top
hits' tags in one. The answers must be those of the separate statements, on both engines.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from facts.models import FactEntity
from recall import fts, graph, rules, services, sides
from recall.query import stem, words

FACTS = [
    ("Ana keeps bees on the roof of the library", ["Ana", "library"]),
    ("Ana moved to Lisbon in 2021", ["Ana", "Lisbon"]),
    ("Ana's sister Eva plays the cello", ["Ana", "Eva"]),
    ("Ana works as a nurse at the city hospital", ["Ana", "hospital"]),
    ("Ana likes green tea in the morning", ["Ana"]),
    ("Ana's dog is called Pixel", ["Ana", "Pixel"]),
    ("Ana runs along the river on Sundays", ["Ana"]),
    ("Ana is allergic to peanuts", ["Ana"]),
    ("Ana studies Portuguese on weekday evenings", ["Ana"]),
    ("Ana's car is a blue hatchback", ["Ana"]),
    ("Eva teaches music at a school in Porto", ["Eva", "Porto"]),
    ("Ana plans a trip to Japan next spring", ["Ana", "Japan"]),
]
# 24 facts: past MEMORY_RECALL_UNIVERSAL_MIN_FACTS (20), so "Ana" is a universal term.
QUERIES = [
    "where does Ana live",
    "Ana bees",
    "what instrument does Eva play",
    "hospital nurse",
    "Ana",
    "trip to Japan",
    "Pixel the dog",
    "morning tea",
    "music school Porto",
    "nothing matches this",
]


@pytest.fixture
def store(memory):
    user = memory.user("ana")
    for text, entities in FACTS:
        memory.store(user, text, entities=entities)
        memory.store(user, f"{text} (again, said differently)", entities=entities[:1])
    return user


def _old_lexical_live(user_id, terms, limit, tables=sides.FACTS):
    """The three statements recall ran before: frequencies, count, then BM25 over the kept terms."""
    if not terms:
        return [], []
    freqs = fts.doc_frequencies(user_id, terms, tables)
    present = [t for t in terms if freqs.get(t, 0) > 0]
    dropped = rules.universal_terms(present, freqs, fts.count_user(user_id, tables))
    kept = [t for t in present if t not in dropped]
    return rules.relative_floor(fts.search(user_id, kept, limit, tables)), sorted(dropped)


def _old_graph_supplement(user, terms, seeds, exclude, base):
    """The graph back-fill as it read before: the seeds' tags, then every entity of the user."""
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


def _answers(user, mode="hybrid"):
    out = []
    for query in QUERIES:
        result = services.recall(user=user, query=query, k=10, mode=mode, log=False)
        out.append([(h.fact.pk, round(h.score, 9), sorted(h.signals.items())) for h in result.items])
        out.append(("dropped", result.stats["dropped_terms"], result.stats["lexical_hits"]))
    return out


@pytest.mark.parametrize("mode", ["hybrid", "lexical"])
def test_recall_answers_exactly_as_with_the_separate_statements(store, monkeypatch, mode):
    now = _answers(store, mode)
    monkeypatch.setattr(sides, "lexical_live", _old_lexical_live)
    monkeypatch.setattr(graph, "neighbours", _old_graph_supplement)
    assert _answers(store, mode) == now
    assert ("dropped", 1, 0) not in now  # "Ana" alone is kept (every term universal: none dropped)
    assert any(entry[0] == "dropped" and entry[1] == 1 for entry in now)  # "Ana bees" drops "Ana"


def test_the_lexical_side_is_one_statement_on_postgresql(store):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite reads its index in-process: no round trip to save")
    services.recall(user=store, query="where does Ana live", k=10, log=False)  # warm
    with CaptureQueriesContext(connection) as lexical:
        sides.lexical_live(store.pk, ["ana", "bees", "roof"], 50)
    assert len(lexical.captured_queries) == 1
    with CaptureQueriesContext(connection) as whole:
        result = services.recall(user=store, query="Eva cello", k=10, mode="lexical", log=False)
    assert result.items
    index_reads = [q["sql"] for q in whole.captured_queries if "recall_fts" in q["sql"] or "recall_doc" in q["sql"]]
    assert len(index_reads) == 1
    # The back-fill: the tagged and named entities in one statement, then their facts.
    graph_reads = [q["sql"] for q in whole.captured_queries if '"facts_entity"' in q["sql"]]
    assert len(graph_reads) == 2, graph_reads


def test_a_recall_runs_fewer_statements_than_with_the_separate_ones(store, monkeypatch):
    """The mean over the queries, printed with -s (docs/measurements.md §13)."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite reads its index in-process: no round trip to save")

    def mean_statements() -> float:
        total = 0
        for query in QUERIES:
            with CaptureQueriesContext(connection) as captured:
                services.recall(user=store, query=query, k=10, log=False)
            total += len(captured.captured_queries)
        return total / len(QUERIES)

    services.recall(user=store, query="warm the model", k=10, log=False)
    now = mean_statements()
    monkeypatch.setattr(sides, "lexical_live", _old_lexical_live)
    monkeypatch.setattr(graph, "neighbours", _old_graph_supplement)
    before = mean_statements()
    print(f"\nstatements per hybrid recall, mean of {len(QUERIES)} queries: {before:.1f} before, {now:.1f} now")
    assert now <= before - 1.5


# --- Facts, turns, episodes and times: the cuts of 2026-11-28 (recall/services.py _read_rows) ----

TURNS = [
    ("t1", "My sister Eva moved to Porto last spring and teaches music there."),
    ("t2", "Honestly, I can't stand cilantro."),
    ("t3", "Our dog Pixel is afraid of thunderstorms."),
    ("t4", "I'm allergic to peanuts, so please keep that in mind for recipes."),
    ("t5", "We are planning a trip to Japan next April with my partner Sam."),
    ("t6", "I love hiking in the mountains with Sam on weekends."),
    ("t7", "My favourite tea is a smoky lapsang souchong."),
    ("t8", "I sold my old bike and bought a cargo bike for the kids."),
    ("t9", "I really like green tea in the morning."),
    ("t10", "I hate waking up early on Sundays."),
]
# When each turn was said, in days before now: a time named in a query finds some of them.
TURN_AGE_DAYS = {"t1": 400, "t2": 9, "t3": 12, "t4": 60, "t5": 3, "t6": 30, "t7": 200, "t8": 10, "t9": 15, "t10": 45}
MIXED_QUERIES = [
    "what does Eva teach",
    "what food does the user avoid",
    "what did I say last week",
    "what did I tell you two months ago about food",
    "the dog",
    "travel plans with Sam",
    "Ana bees",
    "what do I drink in the morning",
    "nothing matches this",
]
AS_OF_DAYS = 20  # a past time: turns said since are not returned, nor facts valid only since


@pytest.fixture
def mixed(store, api, post_turn, settings):
    """The user of `store` (24 facts stored without a turn, tagged with entities) also said the
    turns above through the API (facts with a source turn, and episodes), dated in the past."""
    from datetime import timedelta

    from django.utils import timezone

    from facts.models import Fact, Turn

    settings.MEMORY_RECALL_TURN_KEYS = "words+facts"
    settings.MEMORY_RECALL_FACTS_THROUGH_TURNS = True
    for turn_id, text in TURNS:
        post_turn(api, turn_id, text, user="ana")
    now = timezone.now()
    for turn_id, days in TURN_AGE_DAYS.items():
        when = now - timedelta(days=days)
        Turn.objects.filter(user=store, turn_id=turn_id).update(occurred_at=when)
        Fact.objects.filter(user=store, source_turn__turn_id=turn_id).update(
            last_mentioned_at=when, valid_from=when, created_at=when
        )
    assert Fact.objects.live().filter(user=store, source_turn__isnull=False).count() >= 4
    return store


VARIANTS = [
    {"sources": ("facts",)},
    {"sources": ("facts", "episodes")},
    {"sources": ("facts", "episodes"), "k": 4},
    {"sources": ("facts", "episodes"), "budget_chars": 400},
    {"sources": ("facts", "episodes"), "as_of": AS_OF_DAYS},
    {"sources": ("facts",), "as_of": AS_OF_DAYS},
    {"sources": ("facts", "episodes"), "mode": "lexical"},
    {"sources": ("facts", "episodes"), "mode": "vector"},
    {"sources": ("episodes",)},
]


def _hit(hit) -> tuple:
    own = ("fact", hit.fact.pk) if hit.kind == "fact" else ("episode", hit.turn.pk)
    folded = [("fact", f.fact.pk) if f.kind == "fact" else ("episode", f.turn.pk) for f in hit.folded]
    quote = hit.quote.turn_id if hit.quote is not None else None
    return (*own, round(hit.score, 9), sorted(hit.signals.items()), folded, quote)


def _mixed_answers(user, variant: dict) -> tuple[list, float]:
    """Every query's answer under one variant, and the mean statements per recall."""
    from datetime import timedelta

    from django.utils import timezone

    options = {"k": 10, "mode": "hybrid", **variant}
    if "as_of" in options:
        options["as_of"] = timezone.now() - timedelta(days=options["as_of"])
    answers, statements = [], 0
    for query in MIXED_QUERIES:
        with CaptureQueriesContext(connection) as captured:
            result = services.recall(user=user, query=query, log=False, **options)
        statements += len(captured.captured_queries)
        answers.append([_hit(h) for h in result.items])
        answers.append(("stats", result.stats["time_windows"], result.stats["supplement_hits"]))
    return answers, statements / len(MIXED_QUERIES)


def test_recall_answers_exactly_as_with_each_read_on_its_own(mixed, monkeypatch):
    """Every hit (id, score, signals, what is folded in, the quote) of every query and variant is
    what recall answered when it read the time list's candidates, the categories, the facts its
    turns key and the back-fill each on its own; and it runs fewer statements. Both engines."""
    from tests.recall import recall_before_cuts

    services.recall(user=mixed, query="warm the model", k=10, log=False)
    now = {i: _mixed_answers(mixed, v) for i, v in enumerate(VARIANTS)}
    recall_before_cuts.put_back(monkeypatch)
    before = {i: _mixed_answers(mixed, v) for i, v in enumerate(VARIANTS)}
    for i, variant in enumerate(VARIANTS):
        assert now[i][0] == before[i][0], variant
    print(f"\nstatements per recall ({connection.vendor}), before -> now:")
    for i, variant in enumerate(VARIANTS):
        print(f"  {variant}: {before[i][1]:.2f} -> {now[i][1]:.2f}")
    assert all(now[i][1] <= before[i][1] for i in now)
    # Facts and episodes, no past time: the time list's candidates and categories in one read, the
    # keyed facts' read only with a source turn among the candidates, the folded facts' none, one
    # reading of the embedder switch.
    assert now[1][1] <= before[1][1] - 1.0
    hits = [h for answer in now[1][0] if isinstance(answer, list) for h in answer]
    assert any(h[0] == "episode" and h[4] for h in hits)  # facts folded into their turns
    assert any(isinstance(entry, tuple) and entry[1] for entry in now[1][0])  # some queries named a time
