"""A person's memory mode (docs/design.md §13): what the service may store and recall for them.

    auto       learn from turns and recall (the default)
    confirm    learn, but every new fact or correction waits in the confirmation queue
    read_only  recall what is known; nothing new is stored (turns are withheld)
    off        nothing stored, nothing recalled

Every door (REST, MCP, dashboard) sets it through `memory_mode_set`, which records a
MemoryModeChange (who, from what, to what, when) in the same transaction.
"""

from __future__ import annotations

from django.db import transaction

from core.errors import Conflict, Rejected
from facts.models import ActorKind, MemoryMode, MemoryModeChange, MemoryUser
from facts.services.actors import Actor
from facts.services.users import held_mode, lock_user, note_held_mode

MODES = tuple(MemoryMode.values)
# Modes under which nothing new may be stored for the person.
NO_WRITES = frozenset({MemoryMode.READ_ONLY, MemoryMode.OFF})


def check_mode(mode: object) -> str:
    if not isinstance(mode, str) or mode not in MODES:
        raise Rejected("memory_mode", f"memory_mode must be one of {', '.join(MODES)}; got {mode!r}.")
    return mode


def memory_mode_of(user: MemoryUser | None) -> str:
    """The person's mode as stored now (not as `user` was loaded: a worker holds it for long)."""
    if user is None or user.pk is None:
        return MemoryMode.AUTO
    held = held_mode(user)  # read under the lock this thread holds (users.holding)
    if held is not None:
        return held
    mode = MemoryUser.objects.filter(pk=user.pk).values_list("memory_mode", flat=True).first()
    return mode or MemoryMode.AUTO


@transaction.atomic
def memory_mode_set(*, user: MemoryUser, mode: str, actor: Actor) -> MemoryModeChange | None:
    """Set the person's mode; the audit entry, or None when it was already `mode`."""
    mode = check_mode(mode)
    lock_user(user)
    before = memory_mode_of(user)
    user.memory_mode = mode
    if before == mode:
        return None
    MemoryUser.objects.filter(pk=user.pk).update(memory_mode=mode)
    note_held_mode(user, mode)
    return MemoryModeChange.objects.create(
        tenant_id=user.tenant_id, user=user, before=before, after=mode, actor_kind=actor.kind, actor_id=actor.id
    )


def check_can_store(user: MemoryUser, actor: Actor) -> str:
    """Inside the write transaction: the person's mode, or Conflict when it lets nothing new in.
    Staff deciding the confirmation queue are not stopped: they apply what was held."""
    mode = memory_mode_of(user)
    if mode in NO_WRITES and actor.kind != ActorKind.STAFF:
        raise Conflict(
            f"This person's memory is {mode}: nothing new is stored for them.", rule="memory_mode", memory_mode=mode
        )
    return mode


def needs_confirmation(user: MemoryUser, actor: Actor) -> bool:
    """Under `confirm`, a change by anyone but staff waits in the queue."""
    return actor.kind != ActorKind.STAFF and memory_mode_of(user) == MemoryMode.CONFIRM


RECALL_OFF_REASON = "memory_off"


def recall_withheld(user: MemoryUser | None) -> str | None:
    """Why recall answers nothing for this person (their mode is off), or None. Reads the mode
    `user` was loaded with: the doors load it for the request they answer."""
    return RECALL_OFF_REASON if user is not None and user.memory_mode == MemoryMode.OFF else None
