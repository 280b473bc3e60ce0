"""The chain's messages (facts/extraction/job.py): a worker upgraded while a backlog waits reads
the messages the previous code queued, and sends messages of the same form, so a worker not
yet upgraded reads its messages too."""

from __future__ import annotations

import json
import time

import pytest

from facts import services
from facts.extraction.job import Job, Result
from facts.extraction.pipeline import prepare
from facts.models import Fact, SessionCursor, Turn, TurnState
from facts.tasks import apply_extraction, call_extractor
from tests.facts.extraction.conftest import add, reply
from tests.fake_llm import FakeLLM

TEA = add("User drinks green tea every morning.", "morning_drink", "soft_preference")
# The keys of the job prepare built as a plain dict (before 2026-11-28), in its order.
OLD_JOB_KEYS = ["turn_pk", "turn_id", "tenant_id", "user_pk", "session_id", "window", "now", "facts", "refs"]
OLD_JOB_KEYS += ["messages", "timing"]


@pytest.fixture
def user(alice):
    return services.memory_user_get_or_create(tenant=alice.tenant, user_id="u1")


def _claimed(user, turn_id: str, text: str = "I drink green tea every morning.") -> Turn:
    turn = Turn.objects.create(tenant_id=user.tenant_id, user=user, session_id="s1", turn_id=turn_id, user_input=text)
    Turn.objects.filter(pk=turn.pk).update(state=TurnState.EXTRACTING, attempts=1)
    return turn


def _old_job(turn: Turn, window: list[int]) -> dict:
    """A job message exactly as the previous extract_turn sent it to call_extractor, through JSON."""
    now = time.time()
    message = {
        "turn_pk": turn.pk,
        "turn_id": turn.turn_id,
        "tenant_id": str(turn.tenant_id),
        "user_pk": turn.user_id,
        "session_id": turn.session_id,
        "window": window,
        "now": turn.occurred_at.isoformat(),
        "facts": [],
        "refs": {},
        "messages": [
            {"turn_id": t.turn_id, "occurred_at": t.occurred_at.isoformat(), "user": t.user_input, "assistant": ""}
            for t in Turn.objects.filter(pk__in=window).order_by("pk")
        ],
        "timing": {"enqueued_at": now - 2, "prepare_started": now - 1, "prepare_ms": 3.0, "llm_sent_at": now},
    }
    return json.loads(json.dumps(message))


def test_a_call_extractor_message_queued_by_the_previous_code_is_extracted_and_applied(
    user, fake_llm, django_capture_on_commit_callbacks
):
    earlier = _claimed(user, "t0", "I work at Acme.")
    Turn.objects.filter(pk=earlier.pk).update(state=TurnState.FAILED)  # fed again with the next turn
    turn = _claimed(user, "t1")
    fake_llm.script(reply(add=[TEA]))
    with django_capture_on_commit_callbacks(execute=True):
        call_extractor.apply(args=(_old_job(turn, [earlier.pk, turn.pk]),)).get()

    turn, earlier = Turn.objects.get(pk=turn.pk), Turn.objects.get(pk=earlier.pk)
    assert (turn.state, earlier.state) == (TurnState.DONE, TurnState.DONE), turn.last_error
    assert (
        turn.outcome["added"] and turn.queue_wait_ms is not None and turn.queue_wait_ms >= 1000
    )  # the timing it carried
    assert [f.text for f in Fact.objects.live().filter(user=user)] == [TEA["text"]]
    assert SessionCursor.objects.get(user=user, session_id="s1").last_applied_turn_id == turn.pk
    assert "green tea" in fake_llm.requests[0]["messages"][-1]["content"]


def test_an_apply_extraction_message_queued_by_the_previous_code_is_applied(user):
    turn = _claimed(user, "t1")
    now = time.time()
    result = {
        "reply": FakeLLM.empty_reply(add=[TEA]),
        "extractor": "llm:old-model",
        "llm_ms": 12.5,
        "tries": 1,
        "reasks": 0,
        "timing": {"llm_started": now - 1, "llm_task_ms": 900.0, "apply_sent_at": now},
    }
    apply_extraction.apply(args=(_old_job(turn, [turn.pk]), json.loads(json.dumps(result)))).get()

    turn = Turn.objects.get(pk=turn.pk)
    assert (turn.state, turn.extractor, turn.llm_ms) == (TurnState.DONE, "llm:old-model", 12.5)
    assert Fact.objects.live().filter(user=user).count() == 1


def test_a_failed_result_queued_by_the_previous_code_fails_the_turn(user):
    turn = _claimed(user, "t1")
    result = {"error": "the model timed out", "extractor": "llm:old-model", "llm_ms": 0.0, "timing": {}}
    apply_extraction.apply(args=(_old_job(turn, [turn.pk]), result)).get()
    turn = Turn.objects.get(pk=turn.pk)
    assert (turn.state, turn.last_error) == (TurnState.FAILED, "the model timed out")


def test_a_prepared_job_is_sent_in_the_previous_form_and_read_back_the_same(user):
    """What a worker not yet upgraded reads: the same keys, JSON only."""
    turn = Turn.objects.create(
        tenant_id=user.tenant_id, user=user, session_id="s1", turn_id="t1", user_input="I drink green tea daily."
    )
    job = prepare(turn.pk, time.time())
    assert job is not None
    message = json.loads(json.dumps(job.to_message()))
    assert list(message) == OLD_JOB_KEYS
    assert list(message["messages"][0]) == ["turn_id", "occurred_at", "user", "assistant"]
    assert Job.from_message(message) == job


def test_a_result_is_sent_with_a_replys_keys_or_an_errors_not_both():
    replied = Result(reply={"add": []}, extractor="rules", llm_ms=1.0, tries=1, reasks=0, timing={"llm_started": 1.0})
    assert set(replied.to_message()) == {"reply", "extractor", "llm_ms", "tries", "reasks", "timing"}
    failed = Result(error="invalid twice", extractor="llm:m")
    assert set(failed.to_message()) == {"error", "extractor", "llm_ms"}
    assert Result.from_message(json.loads(json.dumps(replied.to_message()))) == replied


def test_keys_a_reader_does_not_know_are_carried_to_the_next_step():
    """A key a newer sender adds survives this reader's hop to the next step."""
    message = {"turn_pk": 7, "window": [7], "priority": "high"}
    assert Job.from_message(message).to_message()["priority"] == "high"
    assert Result.from_message({"reply": {}, "model_seed": 3}).to_message()["model_seed"] == 3
