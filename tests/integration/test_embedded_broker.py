"""The embedded broker's delivery guarantees (core/broker.py), through kombu as Celery uses it:
real SQLite files, real threads and a real process killed while it holds a message."""

from __future__ import annotations

import base64
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from kombu import Connection, Exchange, Queue
from kombu.transport import sqlalchemy as kombu_sqla
from sqlalchemy import func, select, text

from core import broker as embedded
from memory_service.celery import USERS_HEADER
from tests.db_files import file_bytes

# About the embedded broker's own SQLite file, the same whatever the database engine.
pytestmark = pytest.mark.sqlite_only

ROOT = Path(__file__).resolve().parents[2]
TRANSPORT = "core.broker:Transport"


def connect(path: Path, **options) -> Connection:
    options = {"polling_interval": 0.01, **options}
    return Connection(f"sqlite:///{path}", transport=TRANSPORT, transport_options=options)


def publish(conn: Connection, queue: str, bodies) -> None:
    target = Queue(queue, Exchange(queue), routing_key=queue)
    with conn.Producer() as producer:
        for body in bodies:
            producer.publish(body, exchange=target.exchange, routing_key=queue, declare=[target], serializer="json")


def rows_in(path: Path) -> int:
    table = kombu_sqla.metadata.tables["kombu_message"]
    with embedded.make_engine(f"sqlite:///{path}").connect() as conn:
        return conn.execute(select(func.count()).select_from(table)).scalar_one()


def take(conn: Connection, queue: str):
    channel = conn.default_channel
    channel.queue_declare(queue=queue)
    return channel.basic_get(queue)


@pytest.fixture
def path(tmp_path):
    return tmp_path / "broker.sqlite3"


def test_an_acknowledged_message_is_deleted_and_a_rejected_one_too(path):
    with connect(path) as conn:
        publish(conn, "db", [{"n": 1}, {"n": 2}])
        first, second = take(conn, "db"), take(conn, "db")
        assert (first.payload, second.payload) == ({"n": 1}, {"n": 2})
        assert take(conn, "db") is None  # both held: neither is offered again
        first.ack()
        second.reject()
    assert rows_in(path) == 0


def test_a_requeued_message_is_offered_again_at_once(path):
    with connect(path) as conn:
        publish(conn, "db", [{"n": 1}])
        take(conn, "db").requeue()
        again = take(conn, "db")
        assert again.payload == {"n": 1}
        again.ack()
    assert rows_in(path) == 0


def test_a_consumer_that_closes_without_acking_gives_its_messages_back(path):
    with connect(path) as conn:
        publish(conn, "db", [{"n": 1}])
        assert take(conn, "db").payload == {"n": 1}
    with connect(path) as conn:
        message = take(conn, "db")
        assert message.payload == {"n": 1}
        message.ack()
    assert rows_in(path) == 0


_HOLD_AND_DIE = """
import os, signal, sys
sys.path.insert(0, {root!r})
from kombu import Connection
conn = Connection({url!r}, transport={transport!r})
channel = conn.default_channel
channel.queue_declare(queue="db")
message = channel.basic_get("db")
assert message.payload == {{"n": 1}}, message
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_message_held_by_a_killed_process_is_delivered_again_after_the_visibility_timeout(path):
    with connect(path, visibility_timeout=2) as conn:
        publish(conn, "db", [{"n": 1}])
        script = _HOLD_AND_DIE.format(root=str(ROOT), url=f"sqlite:///{path}", transport=TRANSPORT)
        died = subprocess.run([sys.executable, "-c", script], cwd=ROOT, timeout=60)
        assert died.returncode == -signal.SIGKILL
        killed_at = time.monotonic()
        assert take(conn, "db") is None  # still held by the dead process
        assert rows_in(path) == 1
        while (message := take(conn, "db")) is None:
            assert time.monotonic() - killed_at < 10, "never delivered again"
            time.sleep(0.1)
        assert message.payload == {"n": 1} and time.monotonic() - killed_at >= 1.0
        message.ack()
    assert rows_in(path) == 0


def test_consumers_in_several_threads_never_get_the_same_message(path):
    with connect(path) as conn:
        publish(conn, "db", [{"n": n} for n in range(300)])
    received: list[int] = []
    lock = threading.Lock()

    def consume():
        with connect(path) as conn:
            while (message := take(conn, "db")) is not None:
                with lock:
                    received.append(message.payload["n"])
                message.ack()

    threads = [threading.Thread(target=consume) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(received) == list(range(300))
    assert rows_in(path) == 0


def test_the_broker_file_uses_the_sqlite_module_of_the_project_in_wal_mode_with_a_busy_timeout(path):
    engine = embedded.make_engine(f"sqlite:///{path}", busy_timeout=7)
    assert engine.dialect.dbapi is embedded.sqlite_dbapi()
    assert engine.dialect.dbapi.__name__.split(".")[0] == sys.modules["sqlite3"].__name__.split(".")[0]
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA busy_timeout")).scalar() == 7000


def test_a_forked_child_publishes_through_its_own_connections(path):
    with connect(path) as conn:
        publish(conn, "db", [{"n": 1}])  # the parent's engine now holds an open connection
        parent_engine = embedded._engines[(os.getpid(), f"sqlite:///{path}")]
        child = os.fork()
        if child == 0:
            try:
                with connect(path) as child_conn:
                    publish(child_conn, "db", [{"n": 2}])
                os._exit(0 if (os.getpid(), f"sqlite:///{path}") in embedded._engines else 1)
            except BaseException:
                os._exit(2)
        _, status = os.waitpid(child, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert embedded._engines[(os.getpid(), f"sqlite:///{path}")] is parent_engine
        bodies = [take(conn, "db") for _ in range(2)]
        assert sorted(message.payload["n"] for message in bodies) == [1, 2]
        for message in bodies:
            message.ack()
    assert rows_in(path) == 0


def test_health_reports_the_broker_file_folder(tmp_path):
    assert embedded.file_state(f"sqlite:///{tmp_path / 'broker.sqlite3'}") == "ok"
    missing = tmp_path / "gone" / "broker.sqlite3"
    assert embedded.file_state(f"sqlite:///{missing}") == f"error: broker folder {missing.parent} missing"


def test_a_consumer_whose_prefetch_is_taken_looks_again_soon_and_an_empty_queue_waits_the_interval(path, monkeypatch):
    """kombu slept a whole polling interval whenever nothing was delivered, also while the
    worker's own prefetch was taken: each finished task left a pool process idle for up to
    that long (docs/measurements.md §11). That wait now checks local counters every
    `prefetch_wait` seconds; an empty queue still waits the polling interval."""
    sleeps: list[float] = []
    monkeypatch.setattr(embedded, "sleep", lambda s: (sleeps.append(s), time.sleep(s)))
    got = []
    with connect(path, polling_interval=0.05, prefetch_wait=0.002) as conn:
        publish(conn, "db", [{"n": 1}, {"n": 2}])
        channel = conn.default_channel
        channel.basic_qos(prefetch_size=0, prefetch_count=1, apply_global=False)
        queue = Queue("db", Exchange("db"), routing_key="db")
        with conn.Consumer(queue, callbacks=[lambda body, message: got.append(message)], channel=channel):
            conn.drain_events(timeout=5)
            assert [m.payload for m in got] == [{"n": 1}]
            sleeps.clear()
            with pytest.raises(TimeoutError):  # the first is not acknowledged: nothing more comes
                conn.drain_events(timeout=0.1)
            assert sleeps and max(sleeps) == 0.002  # the last one is cut to the timeout
            got[0].ack()
            conn.drain_events(timeout=5)
            assert [m.payload for m in got] == [{"n": 1}, {"n": 2}]
            got[1].ack()
            sleeps.clear()
            with pytest.raises(TimeoutError):  # the queue is empty
                conn.drain_events(timeout=0.3)
            assert sleeps and max(sleeps) == pytest.approx(0.05)


def _needles(marker: str) -> list[bytes]:
    """The marker as plain text and as it reads inside kombu's base64 message bodies, at each
    of the three alignments (the first and last groups of four hold other bytes)."""
    raw = marker.encode()
    return [raw] + [base64.b64encode(b"=" * k + raw)[4:-4] for k in range(3)]


def _in_files(path: Path, marker: str) -> list[str]:
    files = {suffix or "db": file_bytes(Path(f"{path}{suffix}")) for suffix in ("", "-wal", "-shm")}
    return sorted({name for name, data in files.items() for needle in _needles(marker) if needle in data})


def test_acknowledged_and_dropped_messages_leave_no_byte_in_the_broker_files(path):
    """secure_delete zeroes what an ack deletes; an erase drops the erased user's messages,
    queued or held by a worker, and checkpoints the WAL (docs/design.md §8)."""
    marks = {name: f"zq{name}{os.urandom(6).hex()}7" for name in ("acked", "queued", "held", "bystander")}
    url = f"sqlite:///{path}"
    with connect(path) as conn:
        target = Queue("llm", Exchange("llm"), routing_key="llm")
        with conn.Producer() as producer:
            for name, user in (("acked", 5), ("held", 5), ("queued", 5), ("bystander", 6)):
                body = {"text": f"User said {marks[name]} in a turn."}
                headers = {USERS_HEADER: [user]}
                producer.publish(body, routing_key="llm", declare=[target], serializer="json", headers=headers)
        take(conn, "llm").ack()
        held = take(conn, "llm")
        assert held.payload["text"].endswith(f"{marks['held']} in a turn.")
        assert _in_files(path, marks["queued"]), "the markers are not in the files: the scan would prove nothing"

        assert embedded.drop_user_messages(url, 5) == 2
        held.ack()  # the worker finishes: its message is already gone, nothing breaks

    for name in ("acked", "queued", "held"):
        assert _in_files(path, marks[name]) == [], f"the {name} message's words are still in the broker's files"
    assert _in_files(path, marks["bystander"]), "another user's queued message was dropped too"
    assert rows_in(path) == 1
