# mypy: disable-error-code="attr-defined,union-attr,arg-type,override"
# (kombu's SQLAlchemy transport, which this subclasses, is loosely typed.)
"""The embedded Celery broker: kombu's SQLAlchemy transport on its own SQLite file, made safe.

Selected by ``CELERY_BROKER_TRANSPORT`` when ``CELERY_BROKER_URL`` is a ``sqlite://``
URL (the default, see ``memory_service/settings.py``). It keeps kombu's two tables
(``kombu_queue``, ``kombu_message``) but changes what kombu 5.7's transport does
with them (kombu/transport/sqlalchemy/__init__.py in the virtualenv):

- kombu only marks a delivered message invisible and never deletes it, so the
  table grows forever and a message held by a worker that is then killed is
  never delivered again. Here an acknowledged or rejected message is deleted, a
  requeued one becomes visible again, and one left unacknowledged for longer
  than ``visibility_timeout`` seconds is delivered again (as Redis does).
- kombu takes SQLite's write lock (``BEGIN IMMEDIATE``) on every poll of every
  queue, empty or not. Here a poll is a plain read (WAL: it never waits for a
  writer) and a message is claimed by one conditional UPDATE, so two consumers
  can never both win it.
- kombu hands every transport option to ``create_engine``; here the options are
  ours (``polling_interval``, ``prefetch_wait``, ``visibility_timeout``, ``busy_timeout``).
- The file is opened in WAL mode with a busy timeout, through whichever module
  ``sqlite3`` resolves to (``core/sqlite_driver.py`` may swap it), and
  connections stay open in a pool: no open/close per message.
- kombu's consumer slept a whole polling interval while its prefetch was taken,
  idling the worker after every task; here that wait is a setting of its own (Transport).
"""

from __future__ import annotations

import datetime
import importlib
import json
import os
import shutil
import threading
from pathlib import Path
from queue import Empty
from time import monotonic, sleep
from types import ModuleType
from typing import Any

from kombu.transport import sqlalchemy as kombu_sqla
from kombu.transport.sqlalchemy import models as kombu_models
from kombu.utils import cached_property
from sqlalchemy import (
    Engine,
    Table,
    bindparam,
    column,
    create_engine,
    delete,
    event,
    func,
    make_url,
    or_,
    select,
    table,
    update,
)
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import OperationalError

from core.private_files import is_file_database, private_database
from core.queues import users_named

DEFAULT_VISIBILITY_TIMEOUT = 900.0
DEFAULT_BUSY_TIMEOUT = 30.0
_engines: dict[tuple[int, str], Engine] = {}
_engines_lock = threading.Lock()


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC).replace(tzinfo=None)


def sqlite_dbapi() -> ModuleType:
    """The DB-API module behind ``import sqlite3`` at this moment (stdlib, pysqlite3, sqlean...)."""
    module = importlib.import_module("sqlite3")
    return getattr(module, "dbapi2", module)


def make_engine(url: str, busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> Engine:
    """An engine on the broker file: WAL, a busy timeout, pooled connections kept open."""
    # Created 0600 before SQLite opens it: its messages carry users' words.
    if is_file_database(make_url(url).database or ""):
        private_database(Path(make_url(url).database))
    engine = create_engine(
        url,
        module=sqlite_dbapi(),
        connect_args={"timeout": busy_timeout, "check_same_thread": False},
        # Enough for every thread of a web process to publish at once without
        # the pool opening and closing overflow connections.
        pool_size=16,
        max_overflow=16,
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: object) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        cursor.execute("PRAGMA journal_mode = WAL")
        # In WAL mode NORMAL loses nothing when a process is killed, only on power loss.
        cursor.execute("PRAGMA synchronous = NORMAL")
        # Messages carry users' words (turn and fact text): an acknowledged, dropped or
        # purged message must leave no byte in the file (docs/design.md §8).
        cursor.execute("PRAGMA secure_delete = ON")
        cursor.close()

    return engine


def _engine_for(url: str, busy_timeout: float) -> Engine:
    """One engine per process and file: SQLite connections must not be used across
    fork, so a forked child (a worker's pool process) builds its own."""
    key = (os.getpid(), url)
    with _engines_lock:
        if key not in _engines:
            engine = make_engine(url, busy_timeout)
            _create_tables(engine)
            _engines[key] = engine
        return _engines[key]


def _forget_inherited_engines() -> None:
    # In a forked child, drop the parent's pooled connections without closing
    # them (they belong to the parent); the child opens its own on first use.
    for engine in _engines.values():
        engine.dispose(close=False)
    _engines.clear()


os.register_at_fork(after_in_child=_forget_inherited_engines)


def _declare_kombu_tables() -> None:
    # kombu declares its two tables on its metadata only when a process makes its first
    # channel. A process whose first use of the file is something else (the scrub after an
    # erasure, the health check) would create no tables, cache this engine, and then fail
    # every publish on a file no worker had set up yet ("no such table: kombu_queue"):
    # a restore into a fresh folder did. The names are kombu's defaults, as the Channel's.
    declare = kombu_sqla.Channel._declarative_cls
    declare(None, "Queue", kombu_models.Queue, {"__tablename__": "kombu_queue"})
    declare(None, "Message", kombu_models.Message, {"__tablename__": "kombu_message"})


def _create_tables(engine: Engine) -> None:
    _declare_kombu_tables()
    try:
        kombu_sqla.metadata.create_all(engine)
    except OperationalError:
        # Another process created them between the existence check and CREATE.
        kombu_sqla.metadata.create_all(engine)


class _Statements:
    """The transport's statements, built once per channel: building a SQLAlchemy
    expression per poll costs more than running it."""

    def __init__(self, messages: Table) -> None:
        claimable = (messages.c.queue_id == bindparam("of_queue")) & or_(
            messages.c.visible.is_(True), messages.c.timestamp < bindparam("stale")
        )
        self.insert = messages.insert()
        self.first_claimable = select(messages.c.id).where(claimable).order_by(messages.c.id).limit(1)
        self.count_claimable = select(func.count()).where(claimable)
        # The condition again: the row may have been claimed since it was read.
        self.claim = (
            update(messages)
            .where(messages.c.id == bindparam("row_id"), claimable)
            .values(visible=False, timestamp=bindparam("claimed_at"))
            .returning(messages.c.payload)
        )
        self.delete = delete(messages).where(messages.c.id == bindparam("row_id"))
        self.release = update(messages).where(messages.c.id == bindparam("row_id")).values(visible=True)


class Channel(kombu_sqla.Channel):
    """Delete on ack, redeliver what a dead consumer held, poll without locking."""

    def __init__(self, connection: Any, **kwargs: Any) -> None:
        super().__init__(connection, **kwargs)
        options = connection.client.transport_options
        self.visibility_timeout = float(options.get("visibility_timeout", DEFAULT_VISIBILITY_TIMEOUT))
        self.busy_timeout = float(options.get("busy_timeout", DEFAULT_BUSY_TIMEOUT))
        self._queue_ids: dict[str, int] = {}
        # delivery tag -> row id of the messages this channel holds unacknowledged.
        self._claimed: dict[str, int] = {}

    @property
    def engine(self) -> Engine:
        return _engine_for(self.connection.client.hostname, self.busy_timeout)

    @cached_property
    def _sql(self) -> _Statements:
        return _Statements(self.message_cls.__table__)

    def _queue_id(self, queue: str) -> int:
        if queue not in self._queue_ids:
            table = self.queue_cls.__table__
            with self.engine.begin() as conn:
                conn.execute(sqlite_insert(table).values(name=queue).on_conflict_do_nothing(index_elements=["name"]))
                self._queue_ids[queue] = conn.execute(select(table.c.id).where(table.c.name == queue)).scalar_one()
        return self._queue_ids[queue]

    def _new_queue(self, queue: str, **kwargs: Any) -> None:
        self._queue_id(queue)

    def _put(self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:
        row = {"queue_id": self._queue_id(queue), "payload": json.dumps(payload), "visible": True, "version": 1}
        with self.engine.begin() as conn:
            conn.execute(self._sql.insert, row)

    def _claimable(self, queue: str) -> dict[str, object]:
        return {
            "of_queue": self._queue_id(queue),
            "stale": _now() - datetime.timedelta(seconds=self.visibility_timeout),
        }

    def _get(self, queue: str) -> dict[str, Any]:
        while True:
            params = self._claimable(queue)
            with self.engine.connect() as conn:
                candidate = conn.execute(self._sql.first_claimable, params).scalar()
            if candidate is None:
                raise Empty()
            with self.engine.begin() as conn:
                payload = conn.execute(self._sql.claim, {**params, "row_id": candidate, "claimed_at": _now()}).scalar()
            if payload is not None:
                message: dict[str, Any] = json.loads(payload)
                self._claimed[message["properties"]["delivery_tag"]] = candidate
                return message
            # Another consumer claimed it between the read and the update: look again.

    def _delete_claimed(self, delivery_tag: str) -> None:
        row_id = self._claimed.pop(delivery_tag, None)
        if row_id is not None:
            with self.engine.begin() as conn:
                conn.execute(self._sql.delete, {"row_id": row_id})

    def basic_ack(self, delivery_tag: str, multiple: bool = False) -> None:
        super().basic_ack(delivery_tag, multiple=multiple)
        self._delete_claimed(delivery_tag)

    def basic_reject(self, delivery_tag: str, requeue: bool = False) -> None:
        # With requeue, kombu's QoS calls _restore_at_beginning first.
        super().basic_reject(delivery_tag, requeue=requeue)
        if not requeue:
            self._delete_claimed(delivery_tag)

    def _restore(self, message: Any) -> None:
        row_id = self._claimed.pop(message.delivery_tag, None)
        if row_id is None:
            super()._restore(message)
            return
        with self.engine.begin() as conn:
            conn.execute(self._sql.release, {"row_id": row_id})

    def _size(self, queue: str) -> int:
        with self.engine.connect() as conn:
            return conn.execute(self._sql.count_claimable, self._claimable(queue)).scalar_one()

    def _purge(self, queue: str) -> int:
        messages = self.message_cls.__table__
        queue_id = self._queue_id(queue)
        with self.engine.begin() as conn:
            count = conn.execute(
                select(func.count()).where(messages.c.queue_id == queue_id, messages.c.visible.is_(True))
            ).scalar_one()
            conn.execute(delete(messages).where(messages.c.queue_id == queue_id))
        return count


# How soon a worker whose prefetch is taken looks again (see Transport.drain_events),
# unless the `prefetch_wait` transport option says otherwise.
DEFAULT_PREFETCH_WAIT = 0.05


class Transport(kombu_sqla.Transport):
    Channel = Channel
    driver_name = "sqlite"

    def drain_events(self, connection: Any, timeout: float | None = None) -> None:
        """kombu's loop (kombu/transport/virtual/base.py), with one change in how long it
        sleeps when nothing was delivered.

        A worker holds at most its prefetch of unacknowledged messages; while it does, its
        channel delivers nothing and kombu slept a whole `polling_interval` (50 ms) before
        it looked again, so every finished task left its pool process idle for up to 50 ms
        (docs/measurements.md §11). That wait is for the worker's own tasks, not for the
        broker, and looking again reads two counters, no database: so it is its own
        `prefetch_wait` option (MEMORY_BROKER_PREFETCH_WAIT_SECONDS). An empty queue still
        waits the interval. The default is the interval (kombu's behaviour): a worker that
        takes work sooner also takes SQLite's write lock more often, and a burst of posted
        turns was then accepted 15-40% slower (docs/measurements.md §11).
        """
        prefetch_wait = float(self.client.transport_options.get("prefetch_wait", DEFAULT_PREFETCH_WAIT))
        started = monotonic()
        while True:
            try:
                self.cycle.get(self._deliver, timeout=timeout)
                return
            except Empty:
                waited = monotonic() - started
                if timeout is not None and waited >= timeout:
                    raise TimeoutError() from None  # socket.timeout, as kombu raises
                pause = prefetch_wait if self._prefetch_taken() else (self.polling_interval or 0)
                sleep(pause if timeout is None else min(pause, max(0.0, timeout - waited)))

    def _prefetch_taken(self) -> bool:
        consuming = [channel for channel in self.channels if channel._consumers]
        return bool(consuming) and not any(channel.qos.can_consume() for channel in consuming)


def file_state(url: str) -> str:
    """For the health route: the broker file's folder exists and has room."""
    folder = Path(make_url(url).database or ".").resolve().parent
    if not folder.is_dir():
        return f"error: broker folder {folder} missing"
    return "ok" if shutil.disk_usage(folder).free > 0 else "error: broker disk full"


def health(url: str) -> str:
    """For the health route: "ok" when the broker file can take a message, else "error: <reason>".

    Its folder must exist and be writable (SQLite writes the -wal and -shm files beside the
    database), and the file, once it exists, must open as a SQLite database (in WAL mode,
    as the transport opens it) and answer a read. A missing file is fine: the first message
    creates it.
    """
    name = make_url(url).database or ""
    if is_file_database(name):
        path = Path(name).resolve()
        state = file_state(url)
        if state != "ok":
            return state
        if not os.access(path.parent, os.W_OK):
            return f"error: broker folder {path.parent} not writable"
        if not path.exists():
            return "ok"
        if not os.access(path, os.R_OK | os.W_OK):
            return f"error: broker file {path} not readable and writable"
    try:
        with _engine_for(url, DEFAULT_BUSY_TIMEOUT).connect() as conn:
            # The schema, not kombu's tables: a process creates those with its first channel,
            # and a file another process made before it had one may not have them yet.
            conn.exec_driver_sql("SELECT count(*) FROM sqlite_master").scalar_one()
    except Exception as exc:
        # SQLAlchemy wraps the driver's error in one that adds the SQL and a link: the driver's says it.
        return f"error: broker database: {getattr(exc, 'orig', None) or exc}"
    return "ok"


def drop_user_messages(url: str, user_pk: int) -> int:
    """Delete every message, queued or held by a worker, tagged with this user
    (core.queues.about_users), then checkpoint the WAL so the deleted bytes
    (zeroed by secure_delete) leave the broker's files. Returns how many were dropped.

    A worker holding one of them finds it gone when it acknowledges (nothing happens);
    the task itself finds the user erased."""
    messages = table("kombu_message", column("id"), column("payload"))
    engine = _engine_for(url, DEFAULT_BUSY_TIMEOUT)
    with engine.begin() as conn:
        doomed = [
            row_id
            for row_id, payload in conn.execute(select(messages.c.id, messages.c.payload))
            if user_pk in _users_of(payload)
        ]
        for row_id in doomed:
            conn.execute(delete(messages).where(messages.c.id == row_id))
    checkpoint(url)
    return len(doomed)


def _users_of(payload: str) -> list[int]:
    try:
        return users_named(json.loads(payload).get("headers", {}))
    except (ValueError, AttributeError):
        return []


def checkpoint(url: str) -> None:
    """Copy the broker's WAL into its file and truncate it (after a delete of personal data)."""
    with _engine_for(url, DEFAULT_BUSY_TIMEOUT).connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")


def message_count(url: str) -> int:
    """Messages still held in the broker file, claimed or not (eval_pipeline's drain check)."""
    with _engine_for(url, DEFAULT_BUSY_TIMEOUT).connect() as conn:
        return conn.execute(select(func.count()).select_from(table("kombu_message"))).scalar_one()
