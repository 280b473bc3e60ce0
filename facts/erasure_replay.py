"""Erasures that must survive a restore: journal them, and re-apply them to a restored store.

Every user erase and fact forget journals itself (facts/privacy.py,
facts/services/lifecycle.py). A tenant is deleted through the Django admin, so its
deletion is handled here from the model's own signals: its users are erased first, the
way the erase page does it (index rows and profiles have no foreign key to cascade
through), and the deletion is journaled. `replay` is what `manage.py restore` runs on
the restored copy before the service serves again (core/db/journal.py says
why and how the entries are ordered).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from django.db.models.signals import post_delete, pre_delete
from django.dispatch import receiver

from core.db import journal
from facts import services
from facts.models import Fact, MemoryUser, Tenant
from facts.privacy import user_erase
from facts.services import Actor
from facts.services.actors import SYSTEM

RESTORE = Actor(SYSTEM.kind, "restore")
TENANT_DELETION = Actor(SYSTEM.kind, "tenant deletion")


@receiver(pre_delete, sender=Tenant, dispatch_uid="erase_users_of_deleted_tenant")
def _erase_users_of_deleted_tenant(sender: object, instance: Tenant, **kwargs: Any) -> None:
    erase_tenant_users(instance, actor=TENANT_DELETION)


@receiver(post_delete, sender=Tenant, dispatch_uid="journal_tenant_deleted")
def _journal_tenant_deleted(sender: object, instance: Tenant, **kwargs: Any) -> None:
    journal.note_tenant_deleted(tenant_id=instance.pk)


def erase_tenant_users(tenant: Tenant, *, actor: Actor) -> int:
    users = list(MemoryUser.objects.filter(tenant=tenant).order_by("pk"))
    # The tenant's own journal entry covers its users.
    with journal.paused():
        for user in users:
            user_erase(user=user, actor=actor)
    return len(users)


def replay(entries: Iterable[journal.Entry], *, where: str | None = None) -> Counter[str]:
    """Re-apply these journal entries in order; count, per kind, the entries that still found
    something to erase.

    Users are matched by primary key and checked against the entry's keyed hash, so an
    entry never touches a different person who came to hold the same row later.
    """
    applied: Counter[str] = Counter()
    with journal.paused():
        for entry in entries:
            applied[entry.kind] += _apply(entry, where)
    return applied


def _apply(entry: journal.Entry, where: str | None) -> int:
    if entry.kind == journal.TENANT:
        tenant = Tenant.objects.filter(pk=entry.tenant_id).first()
        if tenant is None:
            return 0
        tenant.delete()
        return 1
    if entry.kind == journal.USER:
        return _erase_user(entry, where)
    if entry.kind == journal.FACTS:
        facts = list(Fact.objects.filter(tenant_id=entry.tenant_id, uuid__in=entry.fact_uuids).order_by("pk"))
        return 1 if services.facts_forget(facts=facts, actor=RESTORE, reason="forgotten again after a restore") else 0
    if entry.kind == journal.TURNS:
        return _withdraw_turns(entry)
    raise ValueError(f"Unknown erasure journal entry kind {entry.kind!r} (seq {entry.seq}).")


def _withdraw_turns(entry: journal.Entry) -> int:
    # The user's primary key and the turns' keys must still belong together: a turn row
    # another person holds now is never touched.
    user = MemoryUser.objects.filter(pk=entry.user_pk or 0, tenant_id=entry.tenant_id).first()
    if user is None:
        return 0
    return 1 if services.turns_withdraw(user=user, turn_pks=[int(pk) for pk in entry.fact_uuids]) else 0


def _erase_user(entry: journal.Entry, where: str | None) -> int:
    user = MemoryUser.objects.filter(pk=entry.user_pk or 0, tenant_id=entry.tenant_id).first()
    if user is None:
        return 0
    if not journal.matches_user(
        tenant_id=entry.tenant_id, external_id=user.external_id, key=entry.user_key, where=where
    ):
        return 0
    user_erase(user=user, actor=RESTORE)
    return 1
