"""What the code that sends a task needs to know about the queues, without the Celery app.

The app and its worker signals are the project's wiring (memory_service/celery.py, the roof);
the apps' tasks and services stand below it and read these instead: the header that names
the users a message is about, and whether this process consumes a queue itself. The app is
Celery's default (its Django fix-up makes it so), which is what `current_app` reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from celery import current_app

# A message that carries a user's words (turn text, fact text) names the user in this
# header, so that erasing the user can drop what is still queued for them
# (core/broker.py `drop_user_messages`, docs/design.md §8).
USERS_HEADER = "memory_users"


def about_users(*user_pks: int) -> dict[str, Any]:
    """apply_async options that tag a message with the users whose words it carries."""
    return {"headers": {USERS_HEADER: sorted({int(pk) for pk in user_pks})}}


def users_named(headers: Mapping[str, Any] | None) -> list[Any]:
    """The users a message's headers name (what `about_users` put there); none without the header."""
    return list((headers or {}).get(USERS_HEADER) or [])


# The queues this process consumes, once it is a worker (set at start by memory_service/celery.py,
# inherited by the pool); None in other processes (the web server, commands). Work a worker can
# do for its own queues it does in the same task instead of sending a message to itself
# (facts/extraction/chain.py, recall/indexer.py).
_consumed: frozenset[str] | None = None


def note_consumed(queues: Iterable[str]) -> None:
    global _consumed
    _consumed = frozenset(queues)


def eager() -> bool:
    """Tasks run inline, in the caller (tests, and `CELERY_TASK_ALWAYS_EAGER`)."""
    return bool(current_app.conf.task_always_eager)


def consumes(queue: str) -> bool:
    """True in eager mode, and in a worker that consumes `queue`."""
    if eager():
        return True
    return _consumed is not None and queue in _consumed


@contextmanager
def inline() -> Iterator[None]:
    """Run tasks inline in this process for the block, then as before: a bench command fills
    and reads a store without workers (indexing after each commit, as `make run`'s worker does)."""
    conf = current_app.conf
    before, conf.task_always_eager = conf.task_always_eager, True
    try:
        yield
    finally:
        conf.task_always_eager = before
