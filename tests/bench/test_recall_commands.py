"""The evaluation and benchmark commands of recall: eval_recall (LoCoMo) and bench_recall."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from bench import embedding_cache, locomo_data
from facts.models import Fact, Tenant, Turn
from recall import fts, vec
from recall.models import EvalRun
from recall.tables import EPISODES

pytestmark = pytest.mark.django_db
TINY = Path(__file__).parent / "data" / "tiny_locomo.json"


def test_evidence_ids_are_normalised():
    assert locomo_data.normalise_evidence(["D8:6; D9:17", "D:11:26", "D1:3"]) == {"D8:6", "D9:17", "D11:26", "D1:3"}


def test_the_corpora_keep_provenance_and_context():
    conv = locomo_data.load_conversations(TINY)[0][1]
    turns = locomo_data.corpus_items(conv, "turns")
    assert len(turns) == 6 and turns[3].dia_ids == {"D1:4"}
    assert turns[3].text.startswith("Ben: The Via Ferrata") and "steel ladder" in turns[3].text
    assert turns[3].context == "" and turns[3].turn == "D1:4"  # its exchange comes from the Turn rows
    specs = {spec.dia_id: spec for spec in locomo_data.conversation_turns(conv)}
    assert specs["D1:4"].session_id != specs["D1:3"].session_id  # each speaker's turns are one session
    assert specs["D1:3"].user_input == "Ada: Which route did you take?" and specs["D1:3"].reply == turns[3].text
    observations = locomo_data.corpus_items(conv, "observations")
    assert len(observations) == 5 and observations[2].dia_ids == {"D1:3", "D1:4"}
    assert observations[4].dia_ids == {"D2:2"} and "sourdough" in observations[4].context
    assert observations[2].turn == "D1:3"  # the first turn it cites is its source turn
    assert [q for q, _ in locomo_data.questions(conv)][-1] == "Who bakes bread?"  # category 5 left out


@pytest.mark.parametrize("corpus", ["observations", "turns"])
def test_eval_recall_prints_a_table_writes_json_and_records_the_run(model, tmp_path, corpus):
    out = StringIO()
    target = tmp_path / "eval.json"
    call_command(
        "eval_recall", "--data", str(TINY), "--corpus", corpus, "--k", "1,5,10", "--json", str(target), stdout=out
    )
    payload = json.loads(target.read_text())
    assert payload["corpus"] == corpus and payload["questions"] == 4
    assert set(payload["results"]) == {"lexical", "vector", "hybrid"}
    for row in payload["results"].values():
        assert {"recall@1", "recall@5", "recall@10", "hit@10", "p50_ms", "p95_ms"} <= row.keys()
        assert row["recall@10"] >= row["recall@5"] >= row["recall@1"]
    assert payload["results"]["hybrid"]["recall@10"] >= 0.75
    assert "delta recall@10 vs lexical" in out.getvalue()
    run = EvalRun.objects.get()
    assert run.corpus == corpus and run.results == payload["results"]
    # The throwaway tenant and its index rows are gone.
    assert not Tenant.objects.filter(name__startswith="eval-").exists()
    assert Fact.objects.count() == 0 and fts.total_rows() == 0 and vec.total_rows() == 0


def test_eval_recall_ablation_adds_its_table(model):
    out = StringIO()
    call_command("eval_recall", "--data", str(TINY), "--modes", "lexical,hybrid", "--ablation", stdout=out)
    text = out.getvalue()
    assert "ablation (recall@10)" in text and "| naive" in text


def test_first_sessions_keeps_a_young_conversation_and_its_questions():
    conv = locomo_data.load_conversations(TINY)[0][1]
    young = locomo_data.first_sessions(conv, 1)
    assert "session_2" not in young and "session_2_observation" not in young and "session_1" in young
    asked = [q for q, _ in locomo_data.questions(young)]
    assert asked == ["What is the name of Ada's kitten?", "Which route did Ben climb?"]
    assert len(locomo_data.corpus_items(young, "observations")) == 3


def test_eval_recall_compares_with_newest_first_on_a_few_sessions(model, tmp_path):
    target = tmp_path / "eval.json"
    call_command(
        "eval_recall", "--data", str(TINY), "--max-sessions", "1", "--modes", "hybrid,recency",
        "--k", "1,10", "--json", str(target), stdout=StringIO(),
    )  # fmt: skip
    payload = json.loads(target.read_text())
    assert payload["questions"] == 2 and set(payload["results"]) == {"hybrid", "recency"}
    # Newest first puts Ben's route (D1:4) first for both questions: it answers one of them.
    assert payload["results"]["recency"]["recall@1"] == 0.5
    for mode in ("hybrid", "recency"):
        assert payload["results"][mode]["recall@10"] == 1.0  # three facts: all fit in 10


def test_eval_recall_explains_bad_arguments(tmp_path):
    with pytest.raises(CommandError, match="does not exist"):
        call_command("eval_recall", "--data", str(tmp_path / "missing"))
    with pytest.raises(CommandError, match="Unknown mode"):
        call_command("eval_recall", "--data", str(TINY), "--modes", "fuzzy")
    with pytest.raises(CommandError, match="positive number of sessions"):
        call_command("eval_recall", "--data", str(TINY), "--max-sessions", "0")


def test_bench_recall_times_each_mode_and_cleans_up(model, tmp_path):
    out = StringIO()
    target = tmp_path / "bench.json"
    call_command(
        "bench_recall",
        "--sizes",
        "600,1200",
        "--queries",
        "20",
        "--measured-users",
        "2",
        "--json",
        str(target),
        stdout=out,
    )
    report = json.loads(target.read_text())
    assert [row["total_facts"] for row in report["growth"]] == [600, 1200]
    for row in report["growth"]:
        for mode in ("lexical", "vector", "hybrid"):
            assert 0 < row[mode]["p50_ms"] <= row[mode]["p95_ms"]
    assert report["embed"]["p50_ms"] > 0 and "synthetic" in report["vectors"]
    assert "hybrid p95 growth" in out.getvalue()
    assert Fact.objects.count() == 0 and fts.total_rows() == 0 and vec.total_rows() == 0


def test_bench_recall_with_episodes_counts_rows_times_both_sources_and_cleans_up(model, tmp_path):
    out = StringIO()
    target = tmp_path / "bench.json"
    call_command(
        "bench_recall",
        *("--sizes", "120,240", "--facts-per-user", "10", "--episodes-per-user", "50"),
        *("--queries", "20", "--measured-users", "1", "--json", str(target)),
        stdout=out,
    )
    report = json.loads(target.read_text())
    assert report["sources"] == ["facts", "episodes"] and report["episodes_per_user"] == 50
    # Sizes count index rows: 60 per user, whole users only.
    assert [(r["total_rows"], r["total_facts"], r["total_episodes"]) for r in report["growth"]] == [
        (120, 20, 100),
        (240, 40, 200),
    ]
    for row in report["growth"]:
        for mode in ("lexical", "vector", "hybrid"):
            assert 0 < row[mode]["p50_ms"] <= row[mode]["p95_ms"]
    assert "hybrid p95 growth 120 -> 240 rows" in out.getvalue()
    assert Turn.objects.count() == 0 and fts.total_rows(EPISODES) == 0 and vec.total_rows(EPISODES) == 0
    assert Fact.objects.count() == 0 and fts.total_rows() == 0 and not Tenant.objects.exists()


def test_bench_recall_gives_every_indexed_row_a_vector_the_filler_users_random_ones_included(model):
    call_command(
        "bench_recall",
        *("--sizes", "120", "--facts-per-user", "10", "--episodes-per-user", "50"),
        *("--queries", "5", "--measured-users", "1", "--keep"),
        stdout=StringIO(),
    )

    assert vec.total_rows() == fts.total_rows() == 20
    assert vec.total_rows(EPISODES) == fts.total_rows(EPISODES) == 100


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (("--episodes-per-user", "-1"), "--episodes-per-user must be 0"),
        (("--sizes", "1000", "--episodes-per-user", "1000"), "at least two users"),
        (("--sizes", "ten"), "comma-separated integers"),
    ],
)
def test_bench_recall_explains_bad_arguments_and_builds_nothing(args, reason):
    with pytest.raises(CommandError, match=reason):
        call_command("bench_recall", *args, stdout=StringIO())
    assert not Tenant.objects.exists() and Turn.objects.count() == 0


def test_the_embedding_cache_keeps_each_text_and_vector_without_padding_texts_to_the_longest(tmp_path):
    import numpy as np

    texts = ["a", "", "naïve café ☕", "x" * 20_000] + [f"short {n}" for n in range(200)]
    cache = {t: np.full(4, i, dtype=np.float32) for i, t in enumerate(texts)}
    path = tmp_path / "cache.npz"
    embedding_cache.save_embedding_cache(path, cache)
    loaded = embedding_cache.load_embedding_cache(path)
    assert list(loaded) == texts and all((loaded[t] == cache[t]).all() for t in texts)
    # One long text no longer pads the other 203: under 3 bytes per stored character here,
    # where a fixed-width array needs 4 x 20,000 per text (16 MB).
    assert path.stat().st_size < 3 * sum(len(t) for t in texts) + 10_000

    old_format = tmp_path / "old.npz"
    np.savez(old_format, texts=np.array(["one", "two"]), vectors=np.ones((2, 4), dtype=np.float32))
    assert list(embedding_cache.load_embedding_cache(old_format)) == ["one", "two"]


def test_an_embedding_cache_of_another_model_is_refused_not_served_as_this_models_vectors(tmp_path):
    import numpy as np

    path = tmp_path / "cache.npz"
    embedding_cache.save_embedding_cache(path, {"one": np.ones(4, dtype=np.float32)}, "multilingual-e5-small-q4")
    assert list(embedding_cache.load_embedding_cache(path, "multilingual-e5-small-q4")) == ["one"]
    with pytest.raises(CommandError, match="holds vectors of multilingual-e5-small-q4, not of all-MiniLM-L6-v2"):
        call_command("eval_recall", "--data", str(TINY), "--embedding-cache", str(path), stdout=StringIO())
    assert not Tenant.objects.exists()


def test_eval_recall_reports_each_locomo_category(model, tmp_path):
    # tiny_locomo's questions: two single-hop (4), one multi-hop (1), one temporal (2); 5 is not asked.
    out, target = StringIO(), tmp_path / "eval.json"
    call_command("eval_recall", "--data", str(TINY), "--modes", "lexical,hybrid", "--json", str(target), stdout=out)
    for row in json.loads(target.read_text())["results"].values():
        by_category = row["by_category"]
        assert {name: c["questions"] for name, c in by_category.items()} == {
            "multi-hop": 1,
            "single-hop": 2,
            "temporal": 1,
        }
        # Each category's mean weighs into the overall mean by its questions.
        overall = sum(c["recall@10"] * c["questions"] for c in by_category.values()) / 4
        assert overall == pytest.approx(row["recall@10"], abs=1e-3)
    assert "hybrid   temporal (1)" in out.getvalue()


def test_locomo_categories_follow_the_datas_numbering():
    conv = locomo_data.load_conversations(TINY)[0][1]
    assert locomo_data.question_categories(conv) == ["single-hop", "single-hop", "multi-hop", "temporal"]
    assert len(locomo_data.question_categories(conv)) == len(locomo_data.questions(conv))


def test_eval_recall_per_question_says_where_each_evidence_turn_ranks(model, tmp_path):
    """`--per-question`: one line per question and mode, each evidence turn's first covering rank; the
    shares covered by rank k average to the run's own recall@k, so the lines explain the figures."""
    target, lines = tmp_path / "eval.json", tmp_path / "questions.jsonl"
    call_command(
        "eval_recall", "--data", str(TINY), "--corpus", "both", "--modes", "lexical,hybrid", "--k", "1,2,10",
        "--json", str(target), "--per-question", str(lines), stdout=StringIO(),
    )  # fmt: skip
    results = json.loads(target.read_text())["results"]
    records = [json.loads(line) for line in lines.read_text().splitlines()]
    conv = locomo_data.load_conversations(TINY)[0][1]
    asked = locomo_data.questions(conv)
    assert [(r["mode"], r["question"]) for r in records] == [(m, q) for m in ("lexical", "hybrid") for q, _ in asked]
    assert [r["category"] for r in records[: len(asked)]] == locomo_data.question_categories(conv)
    for record, (_, evidence) in zip(records, asked * 2, strict=True):
        assert set(record["first_rank"]) == evidence
        for turn, rank in record["first_rank"].items():
            assert rank is None or (
                turn in record["items"][rank - 1] and all(turn not in i for i in record["items"][: rank - 1])
            )
    for mode in ("lexical", "hybrid"):
        for k in (1, 2):
            shares = [
                sum(1 for rank in r["first_rank"].values() if rank is not None and rank <= k) / len(r["first_rank"])
                for r in records
                if r["mode"] == mode
            ]
            assert round(sum(shares) / len(shares), 4) == results[mode][f"recall@{k}"]
    assert any(rank is not None and rank > 1 for r in records for rank in r["first_rank"].values()) or any(
        rank is None for r in records for rank in r["first_rank"].values()
    ), "every evidence turn first: the ranks would prove nothing"
