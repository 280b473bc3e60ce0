"""Turns whose message was lost come back on the `db` queue's own clock; turns merely waiting in
it are not sent twice (facts/lost_turns.py, issue 36)."""

from __future__ import annotations

import base64
import json
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from facts.extraction.chain import extract_turn
from facts.extraction.pipeline import prepare
from facts.lost_turns import SEND_SLACK, sweep_lost_turns, turns_lost_requeue
from facts.models import Fact, Turn, TurnState
from facts.services import turns as services_turns
from facts.services.turns import enqueue
from facts.tasks import sweep_turns
from tests.facts.dashboard_helpers import memory_user
from tests.facts.extraction.conftest import add, reply


def _turn(alice, turn_id: str, *, age_seconds: float, state=TurnState.QUEUED, claimed_seconds_ago=None) -> Turn:
    created = timezone.now() - timedelta(seconds=age_seconds)
    started = None if claimed_seconds_ago is None else timezone.now() - timedelta(seconds=claimed_seconds_ago)
    return Turn.objects.create(
        tenant=alice.tenant,
        user=memory_user(alice.tenant, "u1"),
        session_id="s1",
        turn_id=turn_id,
        user_input="I keep bees on the roof.",
        state=state,
        attempts=0 if started is None else 1,
        created_at=created,
        occurred_at=created,
        started_at=started,
    )


def _messages(folders) -> list[tuple[str, list]]:
    """(task name, args) of each message in the filesystem broker's queue, oldest first."""
    out = []
    for path in sorted(folders["queue"].iterdir(), key=lambda p: int(p.name.split("_")[0])):
        envelope = json.loads(path.read_bytes())
        body = json.loads(base64.b64decode(envelope["body"]))
        out.append((envelope["headers"]["task"], body[0]))
    return out


def test_a_turn_waiting_behind_a_backlog_is_not_sent_again_however_long_it_has_waited(
    alice, broker, django_capture_on_commit_callbacks
):
    """Posted two hours ago, its message still in the queue behind a backlog: the sweep sent it a
    second time (older than MEMORY_TURN_STUCK_SECONDS since posting), a second model call per turn
    in a backlog that then grew. Now the sweep puts its marker behind it; the turn's message is
    delivered first and claims the turn, and the marker finds nothing lost."""
    turn = _turn(alice, "waiting", age_seconds=2 * 3600)
    with django_capture_on_commit_callbacks(execute=True):
        enqueue(turn)
    with django_capture_on_commit_callbacks(execute=True):
        sweep_turns()
    messages = _messages(broker)
    assert [name for name, _ in messages] == ["facts.extract_turn", "facts.sweep_lost_turns"]

    # The queue delivers in order: the turn's message, then the marker.
    assert prepare(messages[0][1][0], None) is not None
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep_lost_turns(*messages[1][1]) == 0
    assert [name for name, _ in _messages(broker)] == ["facts.extract_turn", "facts.sweep_lost_turns"]


def test_a_turn_a_killed_worker_held_comes_back_with_the_sweep_and_is_applied_once(
    alice, fake_llm, django_capture_on_commit_callbacks
):
    """A `db` worker was killed holding the turn's message a minute ago (the broker gives it back
    after its visibility timeout, 15 minutes by default; the sweep's stuck bound was as long). The
    sweep's marker (run inline here, as eager Celery runs it) finds the turn never claimed and
    sends it again; when the first message comes back later it changes nothing."""
    fake_llm.script(reply(add=[add("User keeps bees on the roof.", "hobby_bees", "hobby")]))
    turn = _turn(alice, "held", age_seconds=60)
    with django_capture_on_commit_callbacks(execute=True):
        sweep_turns()
    turn.refresh_from_db()
    assert turn.state == TurnState.DONE, turn.last_error
    assert Fact.objects.live().filter(user=turn.user).count() == 1

    with django_capture_on_commit_callbacks(execute=True):
        extract_turn.apply(args=(turn.pk, None)).get()  # the killed worker's message, given back
    assert len(fake_llm.requests) == 1
    assert Fact.objects.filter(user=turn.user).count() == 1
    assert Turn.objects.get(pk=turn.pk).attempts == 1


def test_a_claimed_turn_is_sent_again_when_its_claim_is_the_stuck_bound_older_than_the_marker(
    alice, django_capture_on_commit_callbacks
):
    """Claimed longer ago than MEMORY_TURN_STUCK_SECONDS: with a marker sent two minutes ago (it
    waited behind a backlog, and so may the turn's result) the turn is left; with one sent now,
    which came through after everything sent before it, the turn is sent again."""
    stuck = settings.MEMORY_TURN_STUCK_SECONDS
    turn = _turn(alice, "claimed", age_seconds=stuck + 90, state=TurnState.EXTRACTING, claimed_seconds_ago=stuck + 60)
    recent = _turn(alice, "recent", age_seconds=30, state=TurnState.EXTRACTING, claimed_seconds_ago=20)
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert turns_lost_requeue(sent_before=timezone.now() - timedelta(seconds=120)) == 0
        assert turns_lost_requeue(sent_before=timezone.now() - SEND_SLACK) == 1
    assert len(sent) == 1
    states = dict(Turn.objects.values_list("turn_id", "state"))
    assert states == {turn.turn_id: TurnState.QUEUED, recent.turn_id: TurnState.EXTRACTING}


def test_a_turn_whose_host_died_before_sending_it_is_sent_again_when_the_client_posts_it_again(
    turns, fake_llm, monkeypatch
):
    """The host committed the turn and was killed before its message left (the many-hosts drill's
    web-kill); the client, with no answer, posts the same turn through another host. That post
    finds the turn still queued and sends it: it is extracted now, once, not minutes later when
    the lost-turns marker has come through the backlog."""
    fake_llm.script(reply(add=[add("User keeps bees on the roof.", "hobby_bees", "hobby")]))
    body = {"session_id": "s1", "turn_id": "t-killed", "user_input": "I keep bees on the roof."}
    with monkeypatch.context() as died:
        died.setattr(services_turns, "_send", lambda *args, **kwargs: None)
        turns.post(**body)
    assert turns.model("t-killed").state == TurnState.QUEUED

    turns.post(**body, expect=200)
    assert turns.model("t-killed").state == TurnState.DONE
    assert len(fake_llm.requests) == 1
    assert list(Fact.objects.live().values_list("text", flat=True)) == ["User keeps bees on the roof."]


def test_a_message_sent_again_for_a_repeated_post_leaves_a_turn_already_claimed_alone(turns, fake_llm, monkeypatch):
    """The first message was not lost, only slow: it claimed the turn while the repeated post's
    message waited. That message claims only a queued turn, so the model is not called twice; a
    message given back after a killed worker (not `resent`) still carries a claimed turn on."""
    with monkeypatch.context() as slow:
        slow.setattr(services_turns, "_send", lambda *args, **kwargs: None)
        turns.post("I keep bees on the roof.", turn_id="t-slow")
    turn = turns.model("t-slow")
    Turn.objects.claim(turn.pk, now=timezone.now())  # the first message, being extracted elsewhere

    turns.run_task_again(extract_turn, turn.pk, None, True)
    turn.refresh_from_db()
    assert (turn.state, turn.attempts, len(fake_llm.requests)) == (TurnState.EXTRACTING, 1, 0)

    fake_llm.script(reply())
    turns.run_task_again(extract_turn, turn.pk, None)
    turn.refresh_from_db()
    assert (turn.state, turn.attempts, len(fake_llm.requests)) == (TurnState.DONE, 2, 1)


def test_a_repeated_post_of_a_turn_no_longer_queued_sends_nothing(turns, fake_llm, monkeypatch):
    fake_llm.script(reply())
    turns.post("I keep bees on the roof.", turn_id="t-done")
    assert turns.model("t-done").state == TurnState.DONE
    sent = []
    monkeypatch.setattr(services_turns, "_send", lambda *args, **kwargs: sent.append(args))
    turns.post("I keep bees on the roof.", turn_id="t-done", expect=200)
    assert sent == [] and len(fake_llm.requests) == 1
