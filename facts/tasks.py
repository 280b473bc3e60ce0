"""The facts app's Celery tasks, where Celery discovers them (docs/design.md §4).

The extraction chain (extract_turn -> call_extractor -> apply_extraction) is defined in
facts/extraction/chain.py, below the turns service that sends its first step; it is named
here. The periodic tasks below call the services, so this module stands on top of them.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from facts.extraction.chain import apply_extraction, call_extractor, extract_turn
from facts.lost_turns import send_marker, sweep_lost_turns
from facts.services.retention import episodes_expire
from facts.services.turns import turns_sweep

__all__ = [
    "apply_extraction",
    "call_extractor",
    "expire_episodes",
    "extract_turn",
    "sweep_lost_turns",
    "sweep_turns",
]


@shared_task(name="facts.sweep_turns", ignore_result=True)
def sweep_turns() -> int:
    """The periodic sweep (CELERY_BEAT_SCHEDULE; `make run`'s worker runs beat embedded, -B):
    failed turns now, and a marker through the queue that finds the lost ones (facts.lost_turns)."""
    count = turns_sweep()
    send_marker()
    return count


@shared_task(name="facts.expire_episodes")
def expire_episodes() -> dict[str, Any]:
    """Periodic (CELERY_BEAT_SCHEDULE): the episode retention pass; nothing when it is off."""
    run = episodes_expire()
    return {} if run is None else {"turns": run.turns, "episodes": run.episodes}
