"""The `db` queue with more than one process, and its work per turn (docs/deployment.md, "Many
hosts"; docs/measurements.md §20): two applies of one person's turns at once store what both
state once, and a `db` worker indexes what it applied in the same task."""

from __future__ import annotations

import contextlib
import threading

import pytest

from core import queues
from facts import services
from facts.extraction import apply as applying
from facts.extraction.job import Job, Result
from facts.extraction.pipeline import prepare
from facts.models import Fact, Turn, TurnState
from memory_service.celery import app
from recall import embed_queue, fts, indexer
from recall.reports import ReportPace
from tests.base import make_tenant
from tests.facts.extraction.conftest import add
from tests.fake_llm import FakeLLM
from tests.threads import at_once

# No entity: a second insert of one entity name would fail on its unique key and hide a doubled fact.
HIKING = add("User goes hiking in the Alps every summer.", "summer_hobby", "soft_preference")


def _prepared_turn(user, session_id: str, turn_id: str) -> Job:
    turn = Turn.objects.create(
        tenant_id=user.tenant_id, user=user, session_id=session_id, turn_id=turn_id, user_input="I hike in the Alps."
    )
    job = prepare(turn.pk, None)
    assert job is not None
    return job


def _result() -> Result:
    return Result(reply=FakeLLM.empty_reply(add=[HIKING]), extractor="llm:test", llm_ms=1.0)


@pytest.mark.django_db(transaction=True)
def test_two_applies_of_one_persons_turns_at_once_store_the_fact_both_state_once(monkeypatch):
    """Two `db` worker processes apply two turns of one person at the same moment, both stating
    the same fact. Each apply holds the person's row (lock_user) until it commits, so the second
    sees the first's fact and refreshes it; without that lock both would insert it (each unable
    to see the other's uncommitted row). The two applies meet right before storing: where one
    waits for the other's lock they cannot meet, and each goes on after a short wait."""
    tenant = make_tenant("two-workers").tenant
    user = services.memory_user_get_or_create(tenant=tenant, user_id="u1")
    jobs = [_prepared_turn(user, f"s{n}", f"t{n}") for n in (1, 2)]
    meet = threading.Barrier(2, timeout=3)
    real_store = services.fact_store

    def store_when_both_are_here(**kwargs):
        # Broken: the other apply is waiting for this one's lock, or has committed.
        with contextlib.suppress(threading.BrokenBarrierError):
            meet.wait()
        return real_store(**kwargs)

    monkeypatch.setattr(applying.services, "fact_store", store_when_both_are_here)
    outcomes = at_once(lambda job: applying.apply(job, _result()), [(job,) for job in jobs])
    assert not [o for o in outcomes if isinstance(o, BaseException)], outcomes
    turns = {t.turn_id: t for t in Turn.objects.filter(user=user)}
    assert {t.state for t in turns.values()} == {TurnState.DONE}, [t.last_error for t in turns.values()]
    live = list(Fact.objects.live().filter(user=user))
    assert [f.text for f in live] == [HIKING["text"]]
    assert live[0].mention_count == 2
    outcomes = sorted((len(t.outcome["added"]), len(t.outcome["duplicates"])) for t in turns.values())
    assert outcomes == [(0, 1), (1, 0)]


def test_a_db_worker_writes_the_index_rows_of_a_turn_it_applied_itself_and_sends_no_drain_message(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    """A `db` worker that does not embed (the many-hosts layout: vectors on `embed` workers) wrote
    the applied turn's index rows in a second task, `recall.drain_index`, which it sent to its own
    queue: behind the whole backlog, and one more broker round trip per turn. It now writes the
    FTS rows after its commit and hands the texts to the `embed` queue itself."""
    user = services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    job = _prepared_turn(user, "s1", "t1")
    sent: dict[str, list] = {"drain": [], "embed": []}
    monkeypatch.setattr(indexer.drain_index, "apply_async", lambda *a, **k: sent["drain"].append(k))
    monkeypatch.setattr(embed_queue.embed_facts, "apply_async", lambda *a, **k: sent["embed"].append(k["args"][0]))
    # A worker of the `db` queue alone, tasks sent to the broker (not run inline).
    monkeypatch.setitem(app.conf, "task_always_eager", False)
    monkeypatch.setattr(queues, "_consumed", frozenset({"db"}))

    with django_capture_on_commit_callbacks(execute=True):
        applying.apply(job, _result())

    fact = Fact.objects.live().get(user=user)
    turn = Turn.objects.get(pk=job.turn_pk)
    assert turn.state == TurnState.DONE
    assert sent["drain"] == []
    assert fact.pk in fts.indexed_hashes([fact.pk])
    to_embed = {(item["kind"], item["fact_id"]) for batch in sent["embed"] for item in batch}
    assert ("fact", fact.pk) in to_embed


def test_an_embed_worker_reports_its_failures_at_once_and_its_successes_once_a_minute(monkeypatch):
    """Each batch an `embed` worker embedded sent a `recall.note_embedder` message to the `db`
    queue: one more `db` task per applied turn, to record "the embedder works"."""
    sent: list[str] = []
    monkeypatch.setattr(embed_queue.note_embedder, "apply_async", lambda *a, **k: sent.append(k["args"][0]))
    monkeypatch.setattr(embed_queue, "_pace", ReportPace())
    clock = [1000.0]
    monkeypatch.setattr(embed_queue.time, "time", lambda: clock[0])
    for _ in range(5):
        embed_queue.report_embedder(error="")
        clock[0] += 1
    assert sent == [""]
    embed_queue.report_embedder(error="ConnectionError: refused")
    embed_queue.report_embedder(error="ConnectionError: refused")
    clock[0] += 1
    embed_queue.report_embedder(error="")  # working again: said at once
    embed_queue.report_embedder(error="")
    clock[0] += 61
    embed_queue.report_embedder(error="")
    assert sent == ["", "ConnectionError: refused", "ConnectionError: refused", "", ""]
