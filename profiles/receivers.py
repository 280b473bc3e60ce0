"""Signal receivers connecting profiles to the write path and extraction."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from facts.models import MemoryUser, TurnState
from facts.signals import facts_forgetting, turn_processed, user_erasing
from profiles.models import Profile


@receiver(turn_processed, dispatch_uid="profiles.turn_processed")
def project_every_n_turns(sender: object, *, user_id: int, state: str, **kwargs: Any) -> None:
    # Skipped turns asserted nothing durable; only extracted ones count.
    if state != TurnState.DONE:
        return
    from profiles import tasks

    tasks.project_after_turns(user_id)


@receiver(user_erasing, dispatch_uid="profiles.user_erasing")
def erase_profiles(sender: object, *, user: MemoryUser, count_only: bool = False, **kwargs: Any) -> dict[str, int]:
    profiles = Profile.objects.filter(user=user)
    if count_only:
        return {"profiles": profiles.count()}
    deleted, _ = profiles.delete()
    return {"profiles": deleted}


@receiver(facts_forgetting, dispatch_uid="profiles.facts_forgetting")
def scrub_forgotten_facts(sender: object, *, user: MemoryUser, fact_uuids: list[str], **kwargs: Any) -> None:
    from profiles import services

    services.profiles_scrub_facts(user=user, fact_uuids=fact_uuids)
