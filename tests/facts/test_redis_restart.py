"""A turn posted while Redis restarts is sent again once Redis is back, within a sweep (issue 36's
redis-restart fault): real redis-server, this process's Celery app pointed at it."""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import socket
from datetime import timedelta
from types import SimpleNamespace

import pytest
import redis
from celery.worker.consumer import Consumer
from kombu import Exchange, Queue
from kombu import pools as kombu_pools

from facts import bookkeeping
from facts.lost_turns import sweep_lost_turns
from facts.models import Turn, TurnState
from facts.tasks import sweep_turns
from memory_service.celery import app as celery_app
from tests.integration.stack import Proc, clean_env, free_port, wait_for


def _drop_broker_connections():
    kombu_pools.reset()
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


class Redis:
    """redis-server on a loopback port, which can be killed and started again on that port."""

    def __init__(self, tmp_path):
        self.port, self.dir, self.proc = free_port(), tmp_path / "redis", None
        self.dir.mkdir()
        self.client = redis.Redis(port=self.port, socket_timeout=2)

    def start(self) -> None:
        args = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.dir)]
        args += ["--save", "", "--appendonly", "yes", "--appendfsync", "always"]
        self.proc = Proc("redis", args, cwd=self.dir, env=clean_env(), log_dir=self.dir)
        wait_for(self._up, 15, what="redis-server")

    def _up(self) -> bool:
        try:
            return bool(self.client.ping())
        except redis.RedisError:
            return False

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.stop()

    def messages(self, queue: str = "db") -> list[tuple[str, list]]:
        """(task name, args) of the messages waiting in `queue`, oldest first."""
        out = []
        for raw in reversed(self.client.lrange(queue, 0, -1)):  # kombu pushes on the left
            envelope = json.loads(raw)
            out.append((envelope["headers"]["task"], json.loads(base64.b64decode(envelope["body"]))[0]))
        return out


@pytest.fixture
def redis_broker(tmp_path):
    server = Redis(tmp_path)
    server.start()
    conf = celery_app.conf
    saved = (conf.task_always_eager, conf.broker_url, conf.broker_transport_options, conf.broker_transport)
    conf.update(
        task_always_eager=False,
        broker_url=f"redis://127.0.0.1:{server.port}/0",
        broker_transport_options={"visibility_timeout": 30},
        broker_transport="core.redis_broker:Transport",  # as settings/tasks.py names it for redis://
    )
    bookkeeping._last_touch.clear()
    _drop_broker_connections()
    try:
        yield server
    finally:
        conf.update(
            task_always_eager=saved[0],
            broker_url=saved[1],
            broker_transport_options=saved[2],
            broker_transport=saved[3],
        )
        _drop_broker_connections()
        server.stop()


def test_a_turn_posted_while_redis_restarts_is_sent_again_by_the_next_sweep(
    api, redis_broker, django_capture_on_commit_callbacks
):
    """Redis killed: the POST still answers 202 and keeps the turn `queued` (its message could not
    be sent). The sweep sent such a turn again only MEMORY_TURN_STUCK_SECONDS after it was posted
    (300 s in the drill, whose recovery limit is 240 s; 15 minutes by default). Now the sweep's
    marker, once it comes through the restarted Redis, finds the turn never claimed and sends it."""
    redis_broker.kill()
    with django_capture_on_commit_callbacks(execute=True):
        r = api.post("/users/u1/turns", {"session_id": "s1", "turn_id": "t1", "user_input": "I live in Oslo."})
    assert r.status_code == 202, r.content
    turn = Turn.objects.get(turn_id="t1")
    assert turn.state == TurnState.QUEUED

    # The next sweep comes up to MEMORY_TURN_SWEEP_SECONDS later (10 s in the drill).
    Turn.objects.filter(pk=turn.pk).update(created_at=turn.created_at - timedelta(seconds=30))

    redis_broker.start()  # on its append-only file: nothing it had acknowledged is lost
    with django_capture_on_commit_callbacks(execute=True):
        sweep_turns()
    messages = redis_broker.messages()
    assert [name for name, _ in messages] == ["facts.sweep_lost_turns"]

    # The marker is delivered (and, a task time limit later, run): the turn is sent again.
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep_lost_turns(*messages[0][1]) == 1
    sent = redis_broker.messages()
    assert ("facts.extract_turn", turn.pk) in [(name, args[0]) for name, args in sent]


def _consumer_on(connection):
    """Celery's broker consumer, as a worker runs it, on `connection`, outside a running worker:
    the pool and controller are stand-ins for what it reads of them."""
    consumer = Consumer(
        on_task_request=None,
        init_callback=lambda consumer: None,
        app=celery_app,
        hostname="redis-loss@test",
        pool=SimpleNamespace(num_processes=1, is_green=False),
        controller=SimpleNamespace(use_eventloop=False),
        timer=None,
        hub=None,
    )
    consumer.connection = connection
    return consumer


def _take_without_ack(connection, queue: str) -> list:
    """A worker's state when Redis goes: a message taken and not acknowledged, the next BRPOP
    in flight on the task channel, and a later channel with an auto-delete fanout queue (the
    worker's remote-control mailbox), whose close fails first and leaves the task channel open."""
    channel = connection.default_channel
    Queue(queue, Exchange(queue), queue)(channel).declare()
    connection.Producer(channel).publish({"marker": 1}, exchange=queue, routing_key=queue)
    taken: list = []
    channel.basic_qos(0, 4, False)
    channel.basic_consume(queue, False, taken.append, "tasks")
    connection.drain_events(timeout=5)
    with contextlib.suppress(socket.timeout):
        connection.drain_events(timeout=0.2)  # empty: the BRPOP stays in flight
    mailbox = connection.channel()
    Queue("mailbox", Exchange("mailbox", type="fanout"), auto_delete=True)(mailbox).declare()
    mailbox.basic_consume("mailbox", True, lambda message: None, "mailbox")
    return taken


VISIBILITY_SECONDS = 2


def test_a_worker_that_loses_redis_holding_a_message_goes_on_and_the_message_comes_back(redis_broker, caplog):
    """kombu's own Redis transport, in this state, raised AttributeError from closing the lost
    connection, and again from acknowledging the message of a task that finished after the
    reconnection; either ended the worker (the many-hosts drill's redis-restart fault,
    core/redis_broker.py). With ours both are broker errors Celery logs and survives, and the
    message comes back from Redis's unacked hash after the visibility timeout (the fixture puts
    the setting back)."""
    celery_app.conf.broker_transport_options = {"visibility_timeout": VISIBILITY_SECONDS}
    connection = celery_app.connection_for_read()
    try:
        taken = _take_without_ack(connection, "db-loss")
        assert len(taken) == 1 and len(connection.default_channel.qos._delivered) == 1
        redis_broker.kill()
        consumer = _consumer_on(connection)

        consumer.on_connection_error_after_connected(redis.ConnectionError("Connection closed by server."))
        assert consumer.connection is None

        # The task finishes once the worker has reconnected; Celery acknowledges it so.
        errors = connection.connection_errors + connection.channel_errors
        taken[0].ack_log_error(logging.getLogger("ack"), errors)
        assert "Couldn't ack" in caplog.text
    finally:
        with contextlib.suppress(Exception):
            connection.close()
    redis_broker.start()  # on its append-only file: the unacked hash is still there
    assert redis_broker.client.hlen("unacked") == 1
    with celery_app.connection_for_read() as again:
        channel = again.default_channel
        wait_for(
            lambda: channel.qos.restore_visible() or redis_broker.client.llen("db-loss") == 1,
            timeout=VISIBILITY_SECONDS + 10,
            interval=0.5,
            what="the unacknowledged message back in its queue",
        )
