"""Transient errors, invalid replies, failed turns fed again, duplicate deliveries."""

from __future__ import annotations

from facts.models import AppliedChange, Fact, SessionCursor, Turn
from facts.tasks import apply_extraction, extract_turn
from tests.facts.extraction.conftest import add, reply
from tests.fake_llm import FakeLLM

TEA = add("User drinks green tea every morning.", "morning_drink", "soft_preference", ["green tea"])


def test_a_429_then_success_is_retried_with_backoff(turns, fake_llm):
    fake_llm.script(FakeLLM.error(429, "slow down"), reply(add=[TEA]))
    turns.post("I drink green tea every morning.", turn_id="t1")
    state = turns.get("t1")
    assert state["status"] == "done", state
    assert len(fake_llm.requests) == 2
    assert Fact.objects.live().count() == 1


def test_a_timeout_is_transient_too(turns, fake_llm, settings):
    settings.MEMORY_LLM_TIMEOUT_SECONDS = 0.3
    fake_llm.script(FakeLLM.json(FakeLLM.empty_reply(), delay=1.0), reply(add=[TEA]))
    turns.post("I drink green tea every morning.", turn_id="t1")
    assert turns.get("t1")["status"] == "done"
    assert Fact.objects.live().count() == 1


def test_500_three_times_fails_the_turn_and_a_later_run_succeeds_with_nothing_lost_or_doubled(turns, fake_llm):
    fake_llm.script(FakeLLM.error(500), FakeLLM.error(502), FakeLLM.error(503))
    turns.post("I drink green tea every morning.", turn_id="t1")
    state = turns.get("t1")
    assert state["status"] == "failed"
    assert "failed 3 times" in state["last_error"] and "HTTP 503" in state["last_error"]
    assert state["outcome"]["reason"].startswith("failed: ")
    assert len(fake_llm.requests) == 3 and Fact.objects.count() == 0
    assert not SessionCursor.objects.filter(last_applied_turn__isnull=False).exists()

    # The next turn of the session feeds the failed turn's messages again.
    fake_llm.script(reply(add=[TEA, add("User lives in Oslo.", "home_city", "identity", ["Oslo"])]))
    turns.post("I live in Oslo.", turn_id="t2")
    prompt = fake_llm.user_prompts()[-1]
    assert "I drink green tea every morning." in prompt and "I live in Oslo." in prompt
    assert turns.get("t2")["status"] == "done"
    first = turns.get("t1")
    assert first["status"] == "done" and first["outcome"]["reason"] == "applied with turn t2"
    assert sorted(Fact.objects.live().values_list("key", flat=True)) == ["home_city", "morning_drink"]
    cursor = SessionCursor.objects.get()
    assert cursor.last_applied_turn.turn_id == "t2"

    # Running it again (a retry of a turn already covered) changes nothing.
    turns.retry("t1", expect=409)
    turns.run_task_again(extract_turn, Turn.objects.get(turn_id="t1").pk)
    assert Fact.objects.count() == 2 and len(fake_llm.requests) == 4


def test_a_failed_turn_can_be_retried_on_its_own(turns, fake_llm):
    fake_llm.script(*[FakeLLM.error(500)] * 3)
    turns.post("I drink green tea every morning.", turn_id="t1")
    assert turns.get("t1")["status"] == "failed"
    fake_llm.script(reply(add=[TEA]))
    assert turns.retry("t1")["status"] in {"queued", "done"}
    state = turns.get("t1")
    assert state["status"] == "done" and state["attempts"] == 2 and state["last_error"] == ""
    assert Fact.objects.count() == 1


def test_invalid_json_then_valid_is_re_asked_once(turns, fake_llm):
    fake_llm.script(FakeLLM.text("Sure! Here are the facts: User drinks tea."), reply(add=[TEA]))
    turns.post("I drink green tea every morning.", turn_id="t1")
    assert turns.get("t1")["status"] == "done"
    reask = fake_llm.requests[1]["messages"]
    assert reask[-2]["role"] == "assistant" and "not valid JSON" in reask[-1]["content"]
    assert Fact.objects.count() == 1


def test_a_reply_missing_a_list_is_invalid_and_re_asked(turns, fake_llm):
    fake_llm.script(FakeLLM.json({"add": [TEA]}), reply(add=[TEA]))
    turns.post("I drink green tea every morning.", turn_id="t1")
    assert turns.get("t1")["status"] == "done"
    assert "supersede" in fake_llm.requests[1]["messages"][-1]["content"]


def test_invalid_twice_fails_cleanly(turns, fake_llm):
    fake_llm.script(FakeLLM.text("not json"), FakeLLM.json({"add": "nope"}))
    turns.post("I drink green tea every morning.", turn_id="t1")
    state = turns.get("t1")
    assert state["status"] == "failed" and "invalid twice" in state["last_error"]
    assert len(fake_llm.requests) == 2 and Fact.objects.count() == 0


def test_a_duplicate_task_delivery_adds_nothing(turns, fake_llm):
    fake_llm.script(reply(add=[TEA]))
    turns.post("I drink green tea every morning.", turn_id="t1")
    turn = Turn.objects.get(turn_id="t1")
    before = (Fact.objects.count(), AppliedChange.objects.count(), turn.outcome)

    # The first task delivered again: the turn is done, so no second call.
    turns.run_task_again(extract_turn, turn.pk)
    # The apply message delivered again, even with a different reply: the state CAS refuses it.
    job = {"turn_pk": turn.pk, "window": [turn.pk], "refs": {}, "messages": [], "timing": {}}
    other = {"reply": FakeLLM.empty_reply(add=[add("User hates tea.", "morning_drink")]), "extractor": "llm:x"}
    turns.run_task_again(apply_extraction, job, other)

    turn.refresh_from_db()
    assert (Fact.objects.count(), AppliedChange.objects.count(), turn.outcome) == before
    assert len(fake_llm.requests) == 1 and turn.attempts == 1


def test_the_retry_turns_command_requeues_failed_and_stuck_turns(turns, fake_llm):
    from datetime import timedelta
    from io import StringIO

    from django.core.management import call_command
    from django.utils import timezone

    fake_llm.script(*[FakeLLM.error(503)] * 3)
    turns.post("I drink green tea every morning.", turn_id="t1")
    Turn.objects.filter(turn_id="t1").update(session_id="other")  # its own session
    stuck = Turn.objects.create(
        tenant_id=Turn.objects.get().tenant_id,
        user=Turn.objects.get().user,
        session_id="s9",
        turn_id="t9",
        user_input="I live in Oslo.",
        state="extracting",
        created_at=timezone.now() - timedelta(hours=1),
    )
    fake_llm.script(reply(add=[TEA]), reply(add=[add("User lives in Oslo.", "home_city", "identity")]))
    out = StringIO()
    with turns.capture(execute=True):
        call_command("retry_turns", "--stuck-minutes", "30", stdout=out)
    assert out.getvalue().strip() == "queued=2"
    assert turns.get("t1")["status"] == "done" and turns.get("t9")["status"] == "done"
    assert stuck.pk and Fact.objects.live().count() == 2


def test_retry_turns_counts_a_stuck_turn_from_its_last_start_as_the_sweep_does(alice):
    from datetime import timedelta
    from io import StringIO

    from django.core.management import call_command
    from django.utils import timezone

    from facts.services import memory_user_get_or_create

    user = memory_user_get_or_create(tenant=alice.tenant, user_id="u1")
    long_ago, just_now = timezone.now() - timedelta(hours=2), timezone.now() - timedelta(minutes=1)
    common = {"tenant": alice.tenant, "user": user, "session_id": "s1", "user_input": "I live in Oslo."}
    # Created two hours ago but claimed again a minute ago: a worker is on it, not stuck.
    Turn.objects.create(turn_id="busy", state="extracting", created_at=long_ago, started_at=just_now, **common)
    Turn.objects.create(turn_id="lost", state="extracting", created_at=long_ago, started_at=long_ago, **common)
    out = StringIO()
    call_command("retry_turns", "--stuck-minutes", "30", stdout=out)
    assert out.getvalue().strip() == "queued=1"
    assert Turn.objects.get(turn_id="busy").state == "extracting"


# The drill's primary was down 16 s (its shutdown checkpoint's fsync) and a db step's tries six
# times in a row found it shutting down or starting up: the waits between them are 1, 2, 4, 8,
# then 10 s (no jitter), so a turn moves on at most 10 s after the database answers again.
UNREACHABLE_TRIES = 6
WAITS = [1, 2, 4, 8, 10, 10]


def _while_the_database_is_down(turns, fake_llm, step: str, monkeypatch) -> tuple[list, list]:
    """Post a turn with `step` of the chain ("prepare" or "apply") finding the database
    unreachable UNREACHABLE_TRIES times; the calls it saw and the waits Celery set between them."""
    from celery.signals import task_retry
    from django.db import OperationalError

    from facts.extraction import chain
    from memory_service.celery import app

    real, calls, waits = getattr(chain, step), [], []

    def unreachable_at_first(*args, **kwargs):
        calls.append(args[0])
        if len(calls) <= UNREACHABLE_TRIES:
            raise OperationalError("the database system is shutting down")
        return real(*args, **kwargs)

    def note_wait(sender=None, reason=None, **kwargs):
        waits.append(reason.when)  # the Retry's countdown

    monkeypatch.setattr(chain, "consumes", lambda queue: False)  # the three tasks, as on many hosts
    monkeypatch.setattr(chain, step, unreachable_at_first)
    fake_llm.script(reply(add=[TEA]))
    # As in a worker, a task's exception stays in its task: eager Celery then runs the retry
    # at once (Task.apply re-applies a Retry) instead of raising it into the caller.
    conf = app.conf
    propagates, conf.task_eager_propagates = conf.task_eager_propagates, False
    task_retry.connect(note_wait, weak=False)
    try:
        turns.post("I drink green tea every morning.", turn_id="t1")
    finally:
        task_retry.disconnect(note_wait)
        conf.task_eager_propagates = propagates
    return calls, waits


def test_a_database_error_while_applying_is_retried_within_10_s_and_the_turn_completes_once(
    turns, fake_llm, monkeypatch
):
    # The many-hosts drill restarts the primary under a db worker: the apply task's connection
    # failed, and the turn stayed `extracting` until the sweep's stuck bound; then the retries'
    # backoff grew to 30 s (jittered), most of the drill's time to recover.
    calls, waits = _while_the_database_is_down(turns, fake_llm, "apply", monkeypatch)
    assert turns.get("t1")["status"] == "done"
    assert len(calls) == UNREACHABLE_TRIES + 1 and len(fake_llm.requests) == 1
    assert waits == WAITS
    assert [(f.text, f.mention_count) for f in Fact.objects.live()] == [("User drinks green tea every morning.", 1)]


def test_a_database_error_while_claiming_a_turn_is_retried_within_10_s_and_the_turn_completes_once(
    turns, fake_llm, monkeypatch
):
    # The drill's primary restart: extract_turn found the primary shutting down, failed, and
    # its turn stayed `queued` until the sweep's stuck bound (MEMORY_TURN_STUCK_SECONDS).
    calls, waits = _while_the_database_is_down(turns, fake_llm, "prepare", monkeypatch)
    assert turns.get("t1")["status"] == "done"
    assert len(calls) == UNREACHABLE_TRIES + 1 and len(fake_llm.requests) == 1
    assert waits == WAITS
    assert [(f.text, f.mention_count) for f in Fact.objects.live()] == [("User drinks green tea every morning.", 1)]
