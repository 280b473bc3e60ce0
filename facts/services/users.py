"""A tenant's memory users, and the rule for the ids clients give (users, sessions, turns)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import IntegrityError, connection, transaction

from core.errors import NotFound, Rejected
from core.ids import ID_MAX
from facts import replicas
from facts.guard import check_identifier
from facts.models import MemoryMode, MemoryUser, Tenant

__all__ = ["ID_MAX", "held_mode", "holding", "lock_user", "memory_user_get", "memory_user_get_or_create", "validate_id"]


def validate_id(value: str, name: str) -> str:
    """A client-chosen id (user_id, session_id, turn_id): 1-ID_MAX characters, none a control or a slash.

    Ids appear in URL paths and logs, so control characters and path separators are refused;
    MCP tool results and mem0 answers show them to a model, so they pass the injection floor.
    """
    if not value or len(value) > ID_MAX or any(ord(c) < 32 or ord(c) == 127 or c in "/\\" for c in value):
        raise Rejected(name, f"{name} must be 1-{ID_MAX} printable characters without slashes.")
    check_identifier(value, name)
    return value


def memory_user_get(*, tenant: Tenant, user_id: str) -> MemoryUser:
    """The tenant's user, or NotFound (also for other tenants' users)."""
    user = MemoryUser.objects.filter(tenant=tenant, external_id=user_id).first()
    if user is None:
        raise NotFound("User not found.")
    return user


def lock_user(user: MemoryUser) -> None:
    """Inside a transaction: hold the user's row until commit, so two writers of one user's facts,
    entities and edges (two web hosts, two workers) take turns and neither inserts what the other
    just did. On PostgreSQL a row lock; SQLite's single writer already serialises them. Inside a
    `holding` block of this user the row is held already: nothing is read again."""
    if held_mode(user) is None:
        _lock(user)


def _lock(user: MemoryUser) -> str:
    """The row locked, and the memory mode it holds (read under the lock)."""
    mode = MemoryUser.objects.select_for_update().filter(pk=user.pk).values_list("memory_mode", flat=True).first()
    # With replicas: where this write ends in the WAL, recorded after commit (read your own writes).
    replicas.note_write([user.pk])
    return mode or MemoryMode.AUTO


# user pk -> memory mode, for the users this thread holds in a `holding` block.
_held = threading.local()


@contextmanager
def holding(user: MemoryUser) -> Iterator[str]:
    """Inside a transaction: lock the user's row (lock_user) for the rest of it, and yield the
    memory mode read under the lock. Within the block, lock_user and memory_mode_of of this user
    read nothing: an applied turn stores each of its facts through fact_store, which took the lock
    and read the mode twice per fact (issue 36, statements per turn). The mode cannot change
    meanwhile: memory_mode_set takes the same lock (and notes its change here)."""
    if not connection.in_atomic_block:
        raise RuntimeError("holding() needs a transaction: the lock is held until it ends")
    mode = _lock(user)
    users = _held.__dict__.setdefault("users", {})
    users[user.pk] = mode
    try:
        yield mode
    finally:
        users.pop(user.pk, None)


def held_mode(user: MemoryUser) -> str | None:
    """The memory mode of a user this thread holds in a `holding` block, else None."""
    held: dict[int, str] = _held.__dict__.get("users", {})
    return held.get(user.pk)


def note_held_mode(user: MemoryUser, mode: str) -> None:
    """A mode set inside a `holding` block of the user is the one the block reads from then on."""
    users = _held.__dict__.get("users", {})
    if user.pk in users:
        users[user.pk] = mode


def memory_user_get_or_create(*, tenant: Tenant, user_id: str) -> MemoryUser:
    validate_id(user_id, "user_id")
    try:
        with transaction.atomic():
            user, _ = MemoryUser.objects.get_or_create(tenant=tenant, external_id=user_id)
    except IntegrityError:  # created by a concurrent writer in between
        user = MemoryUser.objects.get(tenant=tenant, external_id=user_id)
    return user
