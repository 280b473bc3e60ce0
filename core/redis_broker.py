"""kombu's Redis transport, except that a channel whose connection is gone fails as a lost
connection does, so Celery recovers from it instead of ending the worker.

Selected by ``CELERY_BROKER_TRANSPORT`` when ``CELERY_BROKER_URL`` is a ``redis://`` or
``rediss://`` URL (memory_service/settings/tasks.py). Found in the many-hosts drill's Redis
restart (docs/measurements.md §20): a `db` worker's main process exited with
"Unrecoverable error: AttributeError: 'NoneType' object has no attribute 'hostname'" and its
queue went unserved. When Celery 5.7 drops a lost connection it detaches the transport from it
(`Connection.collect`). kombu 5.7 can leave a channel of that connection open (when closing
another channel failed first), and such a channel later builds its Redis client from the
detached connection's address: `None`. Two moments reach it, both seen in the drill's logs:

- closing the lost connection, which hands the messages the worker holds back to Redis;
- a task that was running while the worker reconnected finishes, and its message is
  acknowledged on the channel it came from.

Celery expects a broker error at both and logs it; any other error ends the worker. Here the
channel raises Redis's own ConnectionError. Nothing is lost by it: a message that was neither
handed back nor acknowledged stays in Redis's `unacked` hash and is delivered again after
CELERY_VISIBILITY_TIMEOUT (Redis keeps it on disk with an append-only file,
docs/deployment.md), and every task here is safe to run twice (a turn is claimed once).
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError


class Channel(kombu_redis.Channel):
    def _connparams(self, asynchronous: bool = False) -> dict[str, Any]:
        if self.connection.client is None:
            raise RedisConnectionError(
                "This broker channel belongs to a connection that was closed after Redis was lost; "
                "the worker goes on with a new connection."
            )
        params: dict[str, Any] = super()._connparams(asynchronous=asynchronous)  # type: ignore[misc]
        return params


class Transport(kombu_redis.Transport):
    Channel = Channel
