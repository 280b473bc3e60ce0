"""Nothing sent is silently lost: a broker outage after commit, and the periodic sweep of turns."""

from __future__ import annotations

import shutil
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from facts.lost_turns import SEND_SLACK, turns_lost_requeue
from facts.models import ApiKey, Turn, TurnState
from facts.services.turns import turns_sweep
from memory_service.celery import app as celery_app


def _queued_messages(folders) -> int:
    return len(list(folders["queue"].iterdir()))


def test_a_broker_outage_after_commit_answers_202_and_the_sweep_queues_the_turn_later(
    api,
    broker,
    django_capture_on_commit_callbacks,
    caplog,
):
    shutil.rmtree(broker["queue"])  # the broker's folder is gone: every publish fails
    with django_capture_on_commit_callbacks(execute=True):
        r = api.post("/users/u1/turns", {"session_id": "s1", "turn_id": "t1", "user_input": "I live in Oslo."})
    assert r.status_code == 202, r.content
    turn = Turn.objects.get(turn_id="t1")
    assert turn.state == TurnState.QUEUED
    assert "periodic sweep" in caplog.text
    broker["queue"].mkdir()  # the broker is back
    with django_capture_on_commit_callbacks(execute=True):
        assert turns_sweep() == 0  # nothing failed
        # The sweep's marker, sent after the turn and delivered after everything sent before it,
        # finds the turn never claimed: its message was lost (facts/lost_turns.py).
        assert turns_lost_requeue(sent_before=timezone.now()) == 1
    assert _queued_messages(broker) == 1


def test_an_api_key_bookkeeping_failure_never_fails_the_request(api, broker, django_capture_on_commit_callbacks):
    shutil.rmtree(broker["queue"])
    with django_capture_on_commit_callbacks(execute=True):
        r = api.post("/users/u1/facts", {"text": "User keeps bees."})
    assert r.status_code == 201, r.content
    assert ApiKey.objects.filter(last_used_at__isnull=True).exists()


def _turn(alice, turn_id, state, attempts, *, age_seconds=0):
    from tests.facts.dashboard_helpers import memory_user

    created = timezone.now() - timedelta(seconds=age_seconds)
    return Turn.objects.create(
        tenant=alice.tenant,
        user=memory_user(alice.tenant, "u1"),
        session_id="s1",
        turn_id=turn_id,
        user_input="I live in Oslo.",
        state=state,
        attempts=attempts,
        occurred_at=created,
        created_at=created,
        started_at=created if attempts else None,
    )


def test_the_sweep_retries_failed_and_stuck_turns_a_bounded_number_of_times(
    alice, settings, django_capture_on_commit_callbacks
):
    settings.MEMORY_TURN_MAX_ATTEMPTS = 3
    stuck = settings.MEMORY_TURN_STUCK_SECONDS
    failed = _turn(alice, "failed", TurnState.FAILED, 1)
    exhausted = _turn(alice, "exhausted", TurnState.FAILED, 3)
    lost = _turn(alice, "lost", TurnState.QUEUED, 0, age_seconds=stuck + 5)
    dead = _turn(alice, "dead-worker", TurnState.EXTRACTING, 2, age_seconds=stuck + 30)
    busy = _turn(alice, "busy", TurnState.EXTRACTING, 1, age_seconds=10)
    done = _turn(alice, "done", TurnState.DONE, 1, age_seconds=stuck + 5)
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert turns_sweep(now=now) == 1  # the failed one
        # The lost and the dead worker's, found by the sweep's marker (facts/lost_turns.py).
        assert turns_lost_requeue(sent_before=now - SEND_SLACK, now=now) == 2
    assert len(sent) == 3
    states = dict(Turn.objects.values_list("turn_id", "state"))
    assert states == {
        failed.turn_id: TurnState.QUEUED,
        exhausted.turn_id: TurnState.FAILED,
        lost.turn_id: TurnState.QUEUED,
        dead.turn_id: TurnState.QUEUED,
        busy.turn_id: TurnState.EXTRACTING,
        done.turn_id: TurnState.DONE,
    }
    # The turns just sent are not stuck: a second sweep right away sends nothing.
    with django_capture_on_commit_callbacks(execute=False) as again:
        assert turns_sweep() == 0
        assert turns_lost_requeue(sent_before=now - SEND_SLACK) == 0
    assert again == []


def test_the_sweep_is_scheduled_for_celery_beat():
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-turns"]
    assert entry["task"] in celery_app.tasks and entry["schedule"] == settings.MEMORY_TURN_SWEEP_SECONDS


def test_the_extractor_tasks_time_limits_exceed_its_worst_case():
    from facts.tasks import call_extractor

    worst = 2 * (
        settings.MEMORY_LLM_MAX_TRIES * settings.MEMORY_LLM_TIMEOUT_SECONDS
        + sum(settings.MEMORY_LLM_BACKOFF_SECONDS * 2**i for i in range(settings.MEMORY_LLM_MAX_TRIES - 1))
    )
    assert worst > settings.CELERY_TASK_SOFT_TIME_LIMIT  # the defaults that made turns fail as "crashed"
    assert call_extractor.soft_time_limit is not None and call_extractor.soft_time_limit > worst
    assert call_extractor.time_limit > call_extractor.soft_time_limit
