"""eval_recall --format longmemeval: the data, the scores, the command and the mem0 baseline."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from bench import embedding_cache, longmemeval, longmemeval_shards
from core import engine
from core.db import journal
from facts.models import Tenant, Turn
from recall import fts, vec
from recall.tables import EPISODES

TINY = Path(__file__).parent / "data" / "tiny_longmemeval.json"


def _questions() -> dict[str, longmemeval.Question]:
    return {q.id: q for q in longmemeval.load_questions(TINY)}


def test_questions_keep_evidence_dates_and_turns():
    questions = _questions()
    puppy = questions["puppy1"]
    assert puppy.evidence_turns == {"ans_puppy#0"} and puppy.evidence_sessions == {"ans_puppy"}
    assert puppy.asked_at == datetime(2023, 5, 20, 23, 59, 59, 999999, tzinfo=UTC)  # the question's whole day
    assert questions["kayak3_abs"].abstention and not puppy.abstention
    turns = longmemeval.rounds(puppy)
    assert [t.session_id for t in turns] == ["f_soup", "f_rust", "f_plants", "ans_puppy"]  # oldest first
    assert turns[-1].covers == {"ans_puppy#0", "ans_puppy#1"} and "Waffles" in turns[-1].reply


def test_scores_count_the_top_k_only():
    puppy = _questions()["puppy1"]
    noise = [{f"f_soup#{i}"} for i in range(9)]
    found_sixth = noise[:5] + [{"ans_puppy#0"}] + noise[5:]
    scores = longmemeval.question_scores(found_sixth, puppy)
    assert scores["turn"] == {
        "recall_all@5": 0.0,
        "recall_any@5": 0.0,
        "recall_all@10": 1.0,
        "recall_any@10": 1.0,
        "ndcg@10": pytest.approx(1 / math.log2(6)),
    }
    assert scores["session"]["recall_all@5"] == 0.0 and scores["session"]["recall_all@10"] == 1.0
    # The session of a neighbouring message is enough at session level, not at turn level.
    neighbour = longmemeval.question_scores([{"ans_puppy#1"}], puppy)
    assert neighbour["turn"]["recall_any@5"] == 0.0 and neighbour["session"]["recall_all@5"] == 1.0


def test_recall_all_needs_every_evidence_message():
    puppy = _questions()["puppy1"]
    puppy.evidence_turns = {"ans_puppy#0", "f_rust#0"}
    scores = longmemeval.question_scores([{"ans_puppy#0"}], puppy)["turn"]
    assert scores["recall_all@5"] == 0.0 and scores["recall_any@5"] == 1.0


def test_newest_first_compares_the_latest_session_with_the_older_ones():
    question = _questions()["puppy1"]
    question.kind = longmemeval.KNOWLEDGE_UPDATE
    question.evidence_turns = {"f_soup#0", "ans_puppy#0"}  # 2 April, then 6 May
    assert longmemeval.newest_first([{"ans_puppy#0"}, {"f_soup#0"}], question) is True
    assert longmemeval.newest_first([{"f_soup#0"}, {"ans_puppy#0"}], question) is False
    assert longmemeval.newest_first([{"f_soup#0"}], question) is False  # the newest not ranked at all
    assert longmemeval.newest_first([{"ans_puppy#0"}], question) is True  # the stale one not ranked
    question.evidence_turns = {"ans_puppy#0"}
    assert longmemeval.newest_first([{"ans_puppy#0"}], question) is None  # one date: nothing to order


# The loader commits each history and the index is written after that commit, as a worker does.
@pytest.mark.django_db(transaction=True)
def test_eval_recall_longmemeval_scores_each_question_and_cleans_up(model, tmp_path):
    target = tmp_path / "lme.json"
    out = StringIO()
    call_command("eval_recall", "--format", "longmemeval", "--data", str(TINY), "--json", str(target), stdout=out)
    data = json.loads(target.read_text())
    assert set(data["results"]) == {"turns", "both"} and data["baseline"] == {}
    for corpus in ("turns", "both"):
        assert set(data["results"][corpus]) == {"lexical", "vector", "hybrid"}
        for summary in data["results"][corpus].values():
            assert summary["questions"] == 2  # the abstention question is left out
            assert set(summary["by_type"]) == {"single-session-user"}
            # The puppy is recalled; the violin lessons were said after the question's day.
            assert summary["turn"]["recall_all@10"] == summary["turn"]["recall_any@5"] == 0.5
            assert summary["session"]["recall_all@5"] == 0.5
            assert summary["knowledge-update"] == {"questions": 0, "newest_first": None}
    assert "knowledge-update: newest evidence" in out.getvalue()
    assert not Tenant.objects.exists() and Turn.objects.count() == 0
    assert fts.total_rows(EPISODES) == 0 and vec.total_rows(EPISODES) == 0 and fts.total_rows() == 0


@pytest.mark.django_db(transaction=True)
def test_an_embedding_cache_is_written_and_read_again_with_the_same_scores(model, tmp_path):
    cache = tmp_path / "emb.npz"

    def scores() -> dict:
        target = tmp_path / "lme.json"
        args = ("--format", "longmemeval", "--data", str(TINY), "--embedding-cache", str(cache), "--json", str(target))
        call_command("eval_recall", *args, stdout=StringIO())
        return json.loads(target.read_text())["results"]

    first = scores()
    kept = embedding_cache.load_embedding_cache(cache)
    assert kept and all(vector.shape == (384,) for vector in kept.values())
    assert scores() == first and embedding_cache.load_embedding_cache(cache).keys() == kept.keys()


@pytest.mark.django_db
def test_the_mem0_baseline_is_scored_by_the_same_code(model):
    from bench.longmemeval_report import run_mem0

    questions = [q for q in _questions().values() if not q.abstention]
    summary = run_mem0(questions).summary()
    # mem0 has no point-in-time search: it finds the violin lessons said after the question too.
    assert summary["questions"] == 2 and summary["turn"]["recall_all@10"] == 1.0
    assert set(summary["by_type"]) == {"single-session-user"}


def test_a_fact_counts_only_the_turn_whose_words_it_returns():
    # "User uses Emacs." came from the turn that also named the dog: without a quote of that turn
    # the caller holds the fact's sentence only, so the dog turn is not counted (issue 34).
    from types import SimpleNamespace

    from bench.longmemeval_run import covered

    covers = {"t-dog": frozenset({"s1:0"}), "t-other": frozenset({"s2:3"})}
    fact = SimpleNamespace(source_turn_id="t-dog")
    bare = SimpleNamespace(kind="fact", fact=fact, episode=None, quote=None)
    quoted = SimpleNamespace(kind="fact", fact=fact, episode=None, quote=SimpleNamespace(turn_id="t-dog"))
    episode = SimpleNamespace(kind="episode", fact=None, episode=SimpleNamespace(turn_id="t-other"), quote=None)

    assert covered(bare, covers) == set()
    assert covered(quoted, covers) == {"s1:0"}
    assert covered(episode, covers) == {"s2:3"}


def test_ndcg_discounts_as_the_benchmark_does():
    # LongMemEval's eval_utils.dcg: rank 1 and rank 2 undiscounted, rank r >= 3 divided by log2(r).
    puppy = _questions()["puppy1"]  # one evidence turn: the puppy's round (ans_puppy#0 and its reply)
    noise = [{"f_soup#0"}, {"f_rust#0"}, {"f_plants#0"}]
    assert longmemeval.ndcg([{"ans_puppy#0"}, *noise], puppy) == 1.0
    assert longmemeval.ndcg([noise[0], {"ans_puppy#0"}], puppy) == 1.0
    assert longmemeval.ndcg([*noise[:2], {"ans_puppy#0"}], puppy) == pytest.approx(1 / math.log2(3))  # 0.6309
    assert longmemeval.ndcg([*noise[:3], {"ans_puppy#1"}], puppy) == pytest.approx(0.5)  # the reply is that turn
    # 10th place scores 1/log2(10), 11th nothing.
    assert longmemeval.ndcg(noise * 3 + [{"ans_puppy#0"}], puppy) == pytest.approx(1 / math.log2(10))
    assert longmemeval.ndcg(noise * 3 + [{"f_soup#0"}, {"ans_puppy#0"}], puppy) == 0.0


def test_ndcg_counts_each_evidence_turn_once_against_the_ideal_order():
    puppy = _questions()["puppy1"]
    puppy.evidence_turns = {"ans_puppy#0", "f_rust#0"}
    ranked = [{"ans_puppy#0"}, {"ans_puppy#1"}, {"f_soup#0"}, {"f_rust#0"}]  # the second item repeats the first's turn
    # DCG 1 + 1/log2(4) = 1.5 against the ideal (both turns first) 1 + 1 = 2.
    assert longmemeval.ndcg(ranked, puppy) == pytest.approx(0.75)
    assert longmemeval.question_scores(ranked, puppy)["turn"]["ndcg@10"] == pytest.approx(0.75)
    assert longmemeval.ndcg([{"f_soup#0"}], puppy) == 0.0


def test_recall_any_needs_one_evidence_turn_and_recall_all_every_one():
    puppy = _questions()["puppy1"]
    puppy.evidence_turns = {"ans_puppy#0", "f_rust#0"}
    puppy.evidence_sessions = {"ans_puppy", "f_rust"}
    noise = [{"f_soup#0"}, {"f_plants#0"}]
    scores = longmemeval.question_scores([{"ans_puppy#0"}, *noise * 3, {"f_rust#0"}], puppy)
    assert scores["turn"] == {
        "recall_all@5": 0.0,
        "recall_any@5": 1.0,
        "recall_all@10": 1.0,
        "recall_any@10": 1.0,
        "ndcg@10": pytest.approx((1 + 1 / math.log2(8)) / 2),
    }
    assert scores["session"] == {"recall_all@5": 0.0, "recall_any@5": 1.0, "recall_all@10": 1.0, "recall_any@10": 1.0}


def test_the_report_shows_the_fields_figures_per_question_type():
    from bench.longmemeval_report import payload, table

    tally = longmemeval.new_tally()
    questions = _questions()
    tally.add(questions["puppy1"], [{"f_soup#0"}, {"ans_puppy#0"}])
    tally.add(questions["violin2"], [{"f_soup#0"}])
    summary = payload({"turns": {"hybrid": tally}}, {}, {})["results"]["turns"]["hybrid"]
    assert summary["turn"]["ndcg@10"] == 0.5 and summary["session"]["recall_any@5"] == 0.5
    assert summary["by_type"]["single-session-user"]["turn"]["ndcg@10"] == 0.5
    text = table(payload({"turns": {"hybrid": tally}}, {}, {}))
    header = text.splitlines()[1].split()
    assert header[-6:] == ["t.all@5", "t.all@10", "t.ndcg@10", "s.any@5", "t.any@10", "s.all@10"]
    assert "turns/hybrid             single-session-user (2)" in text


@pytest.mark.django_db(transaction=True)
def test_eval_recall_longmemeval_runs_only_the_questions_named(model, tmp_path):
    target = tmp_path / "lme.json"
    args = ("--format", "longmemeval", "--data", str(TINY), "--modes", "lexical", "--json", str(target))
    call_command("eval_recall", *args, "--questions", "puppy1", stdout=StringIO())
    assert json.loads(target.read_text())["results"]["turns"]["lexical"]["questions"] == 1
    with pytest.raises(CommandError, match="No such question"):
        call_command("eval_recall", *args, "--questions", "puppy1,nosuch", stdout=StringIO())


@pytest.mark.sqlite_only  # the shares' stores are SQLite files; a server store refuses --jobs (below)
@pytest.mark.django_db(transaction=True)
def test_the_questions_shared_among_processes_score_as_one_process_does(model, tmp_path):
    """`--jobs 2`: each share in its own process and store; the summed figures and the vectors kept
    are the ones a single process gives."""

    def run(*jobs: str) -> tuple[dict, set[str]]:
        target, cache = tmp_path / f"lme{len(jobs)}.json", tmp_path / f"emb{len(jobs)}.npz"
        args = ("--format", "longmemeval", "--data", str(TINY), "--json", str(target), "--embedding-cache", str(cache))
        call_command("eval_recall", *args, *jobs, stdout=StringIO(), stderr=StringIO())
        return json.loads(target.read_text())["results"], set(embedding_cache.load_embedding_cache(cache))

    assert run("--jobs", "2") == run()
    assert not Tenant.objects.exists()
    # The shares erased their users in journals of their own: none under another SECRET_KEY here,
    # which a later restore of this store would refuse.
    journal.check_keys()


@pytest.mark.sqlite_only
@pytest.mark.django_db
def test_a_share_that_fails_stops_the_run_and_says_what_it_said(model, tmp_path, monkeypatch):
    monkeypatch.setenv("MEMORY_EMBEDDING_LOCAL_MODEL", "no-such-model")  # the shares' settings refuse it
    args = ("--format", "longmemeval", "--data", str(TINY), "--modes", "lexical", "--jobs", "2")
    # Both shares refuse it; the one whose exit the parent sees first is the one it reports (the
    # fresh-clone CI run of 43c74c9 saw share-1 first).
    with pytest.raises(CommandError, match="share-[01] stopped with exit status 1:(.|\\n)*no-such-model"):
        call_command("eval_recall", *args, stdout=StringIO(), stderr=StringIO())


@pytest.mark.django_db
def test_on_a_server_store_the_questions_are_not_shared(model):
    if engine.current().embedded:
        pytest.skip("the run on PostgreSQL checks this")
    args = ("--format", "longmemeval", "--data", str(TINY), "--modes", "lexical", "--jobs", "2")
    with pytest.raises(CommandError, match="on a server store run --jobs 1"):
        call_command("eval_recall", *args, stdout=StringIO(), stderr=StringIO())


@pytest.mark.no_database
def test_a_share_takes_every_nth_question_from_its_own():
    assert longmemeval_shards.pick(range(7), "1/3") == [1, 4]
    with pytest.raises(ValueError, match="0 <= i < n"):
        longmemeval_shards.pick(range(7), "3/3")
