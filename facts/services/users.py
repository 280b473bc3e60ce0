"""A tenant's memory users, and the rule for the ids clients give (users, sessions, turns)."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from facts.guard import check_identifier
from facts.models import MemoryUser, Tenant
from memory_service.db import replicas
from memory_service.errors import NotFound, Rejected
from memory_service.ids import ID_MAX

__all__ = ["ID_MAX", "lock_user", "memory_user_get", "memory_user_get_or_create", "validate_id"]


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
    just did. On PostgreSQL a row lock; SQLite's single writer already serialises them."""
    list(MemoryUser.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))
    # With replicas: where this write ends in the WAL, recorded after commit (read your own writes).
    replicas.note_write([user.pk])


def memory_user_get_or_create(*, tenant: Tenant, user_id: str) -> MemoryUser:
    validate_id(user_id, "user_id")
    try:
        with transaction.atomic():
            user, _ = MemoryUser.objects.get_or_create(tenant=tenant, external_id=user_id)
    except IntegrityError:  # created by a concurrent writer in between
        user = MemoryUser.objects.get(tenant=tenant, external_id=user_id)
    return user
