"""Every transition of a turn's state (facts/turn_state.py), and the guard that refuses it when
the turn has moved on meanwhile: a duplicate delivery, two chains of one turn, a turn finished,
sent again, or deleted (withdrawn, its person erased) while a task held its id."""

from __future__ import annotations

import functools
from datetime import timedelta

import pytest
from django.utils import timezone

from facts import services
from facts.models import Turn, TurnState
from facts.signals import index_dirty, turn_failed, turn_processed


@pytest.fixture
def user(alice):
    return services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")


def _turn(user, turn_id="t1", state=TurnState.QUEUED, **fields) -> Turn:
    return Turn.objects.create(
        tenant_id=user.tenant_id,
        user=user,
        session_id="s1",
        turn_id=turn_id,
        user_input="I like tea.",
        state=state,
        **fields,
    )


def _keep(into: list[dict], **kwargs) -> None:
    into.append(kwargs)


@pytest.fixture
def sent():
    """The signals a transition sends, by name, with their kwargs."""
    seen: dict[str, list[dict]] = {"index_dirty": [], "turn_failed": [], "turn_processed": []}
    receivers = {name: functools.partial(_keep, seen[name]) for name in seen}
    for signal, name in (
        (index_dirty, "index_dirty"),
        (turn_failed, "turn_failed"),
        (turn_processed, "turn_processed"),
    ):
        signal.connect(receivers[name], weak=False, dispatch_uid=f"test-turn-states-{name}")
    yield seen
    for signal, name in (
        (index_dirty, "index_dirty"),
        (turn_failed, "turn_failed"),
        (turn_processed, "turn_processed"),
    ):
        signal.disconnect(dispatch_uid=f"test-turn-states-{name}")


def _reread(turn: Turn) -> Turn:
    return Turn.objects.get(pk=turn.pk)


# --- claim ------------------------------------------------------------------------------------


@pytest.mark.parametrize("state", [TurnState.QUEUED, TurnState.FAILED])
def test_a_claim_takes_a_queued_or_failed_turn_to_extracting_with_one_attempt_more(user, state):
    turn = _turn(user, state=state)
    now = timezone.now()
    assert Turn.objects.claim(turn.pk, now=now) is True
    turn = _reread(turn)
    assert (turn.state, turn.attempts, turn.started_at) == (TurnState.EXTRACTING, 1, now)


def test_a_claim_of_an_already_claimed_turn_claims_it_again_for_a_redelivered_task(user):
    """By design (acks_late): the task of a killed worker is delivered again and carries the turn on."""
    turn = _turn(user)
    assert Turn.objects.claim(turn.pk, now=timezone.now())
    assert Turn.objects.claim(turn.pk, now=timezone.now()) is True
    assert _reread(turn).attempts == 2


@pytest.mark.parametrize("state", [TurnState.DONE, TurnState.SKIPPED, TurnState.WITHHELD])
def test_a_claim_of_a_finished_turn_changes_nothing(user, state):
    turn = _turn(user, state=state)
    assert Turn.objects.claim(turn.pk, now=timezone.now()) is False
    turn = _reread(turn)
    assert (turn.state, turn.attempts, turn.started_at) == (state, 0, None)


def test_a_claim_of_a_deleted_turn_changes_nothing(user):
    turn = _turn(user)
    turn.delete()
    assert Turn.objects.claim(turn.pk, now=timezone.now()) is False


# --- skip -------------------------------------------------------------------------------------


def test_a_skip_ends_an_extracting_turn_with_its_reason_and_counts_it_after_commit(
    user, sent, django_capture_on_commit_callbacks
):
    turn = _turn(user, state=TurnState.EXTRACTING)
    with django_capture_on_commit_callbacks(execute=True):
        assert Turn.objects.skip(turn, reason="skipped: greeting", queue_wait_ms=2.0, processing_ms=3.0) is True
    turn = _reread(turn)
    assert (turn.state, turn.outcome["reason"], turn.queue_wait_ms, turn.llm_ms) == (
        TurnState.SKIPPED,
        "skipped: greeting",
        2.0,
        0.0,
    )
    assert [kw["state"] for kw in sent["turn_processed"]] == [TurnState.SKIPPED]


def test_a_skip_of_a_turn_done_meanwhile_changes_nothing(user, sent, django_capture_on_commit_callbacks):
    turn = _turn(user, state=TurnState.DONE, outcome={"reason": "kept"})
    with django_capture_on_commit_callbacks(execute=True):
        assert Turn.objects.skip(turn, reason="skipped: greeting", queue_wait_ms=None, processing_ms=1.0) is False
    assert (_reread(turn).state, _reread(turn).outcome) == (TurnState.DONE, {"reason": "kept"})
    assert sent["turn_processed"] == []


# --- fail -------------------------------------------------------------------------------------


def test_a_fail_keeps_the_reason_and_tells_the_webhooks(user, sent):
    turn = _turn(user, state=TurnState.EXTRACTING)
    timings = {"queue_wait_ms": 1.0, "processing_ms": 2.0, "llm_ms": 3.0}
    assert Turn.objects.fail(turn.pk, reason="the model timed out", extractor="llm:m", timings=timings) is True
    turn = _reread(turn)
    assert (turn.state, turn.last_error, turn.extractor, turn.llm_ms) == (
        TurnState.FAILED,
        "the model timed out",
        "llm:m",
        3.0,
    )
    assert turn.outcome["reason"] == "failed: the model timed out"
    assert sent["turn_failed"] == [{"signal": turn_failed, "sender": Turn, "turn_pk": turn.pk}]


@pytest.mark.parametrize("state", [TurnState.DONE, TurnState.QUEUED])
def test_a_fail_of_a_turn_finished_or_sent_again_meanwhile_changes_nothing(user, sent, state):
    """A late failure of a first chain must not undo the done of a second, nor a fresh send."""
    turn = _turn(user, state=state)
    assert Turn.objects.fail(turn.pk, reason="late") is False
    assert (_reread(turn).state, _reread(turn).last_error) == (state, "")
    assert sent["turn_failed"] == []


# --- finish, record_done, cover ---------------------------------------------------------------


@pytest.mark.parametrize("state", [TurnState.EXTRACTING, TurnState.FAILED])
def test_a_finish_takes_an_extracting_or_failed_turn_to_done_once(user, state):
    turn = _turn(user, state=state, last_error="earlier")
    assert Turn.objects.finish(turn.pk) is True
    assert (_reread(turn).state, _reread(turn).last_error) == (TurnState.DONE, "")
    assert Turn.objects.finish(turn.pk) is False  # the duplicate result


@pytest.mark.parametrize("state", [TurnState.SKIPPED, TurnState.WITHHELD, TurnState.QUEUED])
def test_a_finish_of_a_turn_not_being_extracted_changes_nothing(user, state):
    turn = _turn(user, state=state)
    assert Turn.objects.finish(turn.pk) is False
    assert _reread(turn).state == state


def test_a_finish_of_a_turn_withdrawn_meanwhile_changes_nothing(user):
    turn = _turn(user, state=TurnState.EXTRACTING)
    services.turns_withdraw(user=user, turn_pks=[turn.pk])
    assert Turn.objects.finish(turn.pk) is False
    assert not Turn.objects.filter(pk=turn.pk).exists()


def test_a_recorded_finish_is_an_episode_for_the_index_and_counts_after_commit(
    user, sent, django_capture_on_commit_callbacks
):
    turn = _turn(user, state=TurnState.EXTRACTING)
    timings = {"queue_wait_ms": 1.0, "processing_ms": 2.0, "llm_ms": 3.0}
    with django_capture_on_commit_callbacks(execute=True):
        assert Turn.objects.finish(turn.pk)
        Turn.objects.record_done(turn, outcome={"reason": ""}, extractor="rules", timings=timings)
    turn = _reread(turn)
    assert (turn.state, turn.extractor, turn.processing_ms, turn.finished_at is not None) == (
        TurnState.DONE,
        "rules",
        2.0,
        True,
    )
    assert [kw["turn_ids"] for kw in sent["index_dirty"]] == [[turn.pk]]
    assert [kw["state"] for kw in sent["turn_processed"]] == [TurnState.DONE]


def test_a_cover_finishes_the_failed_turns_fed_with_another_and_leaves_one_sent_again(user, sent):
    failed = _turn(user, "t1", state=TurnState.FAILED, last_error="503")
    retried = _turn(user, "t2", state=TurnState.QUEUED)  # failed, then retried before this result
    by = _turn(user, "t3", state=TurnState.DONE)
    assert Turn.objects.cover([failed.pk, retried.pk, by.pk], by=by) == 1
    failed, retried = _reread(failed), _reread(retried)
    assert (failed.state, failed.last_error, failed.outcome["reason"]) == (TurnState.DONE, "", "applied with turn t3")
    assert retried.state == TurnState.QUEUED
    assert [kw["turn_ids"] for kw in sent["index_dirty"]] == [[failed.pk]]


# --- retry, requeue ---------------------------------------------------------------------------


def test_a_retry_queues_a_failed_turn_and_refuses_any_other(user):
    failed, done = _turn(user, "t1", state=TurnState.FAILED), _turn(user, "t2", state=TurnState.DONE)
    now = timezone.now()
    assert Turn.objects.retry(failed.pk, now=now) is True
    assert (_reread(failed).state, _reread(failed).started_at) == (TurnState.QUEUED, now)
    assert Turn.objects.retry(done.pk, now=now) is False
    assert _reread(done).state == TurnState.DONE


def test_a_requeue_of_a_turn_claimed_since_it_was_read_changes_nothing(user):
    turn = _turn(user, state=TurnState.QUEUED)
    read = _reread(turn)
    Turn.objects.claim(turn.pk, now=timezone.now())
    assert Turn.objects.requeue(read, now=timezone.now()) is False
    assert _reread(turn).state == TurnState.EXTRACTING


def test_a_requeue_with_same_send_refuses_a_turn_sent_again_since_it_was_read(user):
    """The lost-turns marker read a queued turn; the sweep sent it again meanwhile: not twice."""
    sent_at = timezone.now() - timedelta(hours=1)
    turn = _turn(user, state=TurnState.QUEUED, started_at=sent_at)
    read = _reread(turn)
    resent_at = timezone.now()
    Turn.objects.filter(pk=turn.pk).update(started_at=resent_at)  # sent again by the sweep
    assert Turn.objects.requeue(read, now=timezone.now(), same_send=True) is False
    assert _reread(turn).started_at == resent_at
    assert Turn.objects.requeue(read, now=timezone.now()) is True  # the sweep's own rule: state only


# --- born withheld, episode withdrawn ---------------------------------------------------------


def test_a_withheld_turn_is_born_finished_without_its_words(user):
    fields = {"session_id": "s1", "turn_id": "t1", "occurred_at": timezone.now()}
    turn = Turn.objects.create_withheld(fields=fields, user=user, digest="d" * 64, reason="asked")
    turn = _reread(turn)
    assert (turn.state, turn.user_input, turn.content_digest, turn.outcome["reason"]) == (
        TurnState.WITHHELD,
        "",
        "d" * 64,
        "withheld: asked",
    )
    assert Turn.objects.claim(turn.pk, now=timezone.now()) is False


def test_a_withdrawn_episode_leaves_the_turns_state_alone(user):
    turn = _turn(user, state=TurnState.DONE)
    assert Turn.objects.episodes().filter(pk=turn.pk).exists()
    assert Turn.objects.withdraw_episode(turn.pk) == 1
    assert _reread(turn).state == TurnState.DONE
    assert not Turn.objects.episodes().filter(pk=turn.pk).exists()
