"""Which slot and model recall serves now: the embedder switch's row, or, without one, slot "a"
with the model the settings name (recall/switch.py changes it; docs/deployment.md).

The ground of the index: recall.vec reads it to pick a side's live table, recall.embeddings to
pick the live model, the search to pair a query's vector with the slot it was embedded for. It
reads only the settings, the switch's row and the table names, so none of those modules forms
a circle with the switch's steps (recall.switch), which read and write the whole index.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings

from recall.models import EmbedderSwitch
from recall.tables import EPISODES, EPISODES_A, EPISODES_B, FACTS, FACTS_A, FACTS_B, Tables

_SLOTS: dict[str, dict[Tables, Tables]] = {
    "a": {FACTS: FACTS_A, EPISODES: EPISODES_A},
    "b": {FACTS: FACTS_B, EPISODES: EPISODES_B},
}


def configured_model() -> str:
    """The model the settings name: what a store with no switch on record serves."""
    if settings.MEMORY_EMBEDDER == "openai":
        return str(settings.MEMORY_EMBEDDING_MODEL)
    return str(settings.MEMORY_EMBEDDING_LOCAL_MODEL)


def other(slot: str) -> str:
    return "b" if slot == "a" else "a"


def side_of(t: Tables) -> Tables:
    """The side a (possibly slot-specific) table set belongs to."""
    return FACTS if t.id == FACTS.id else EPISODES


def slot_tables(t: Tables, slot: str) -> Tables:
    """The vector table of side `t` (FACTS or EPISODES) in `slot`."""
    return _SLOTS[slot][side_of(t)]


@dataclass(frozen=True)
class State:
    live_slot: str
    live_model: str
    building_model: str = ""
    kept_model: str = ""

    def live_tables(self, t: Tables) -> Tables:
        return slot_tables(t, self.live_slot)

    def other_tables(self, t: Tables) -> Tables:
        return slot_tables(t, other(self.live_slot))


_pinned = threading.local()


@contextmanager
def pinned() -> Iterator[State]:
    """Within the block state() is read once: the indexer's write of a batch asked for it before
    every table it touched, eight reads of one row per applied turn (issue 36). A switch that
    commits meanwhile is seen by the next batch, which is what a read at the block's start gives."""
    outer = getattr(_pinned, "state", None)
    _pinned.state = outer or state()
    try:
        yield _pinned.state
    finally:
        _pinned.state = outer


def state() -> State:
    """What recall serves now (one primary-key read; no row: slot "a", the settings' model)."""
    held: State | None = getattr(_pinned, "state", None)
    if held is not None:
        return held
    row = EmbedderSwitch.objects.filter(pk=1).values_list("live_slot", "live_model", "building_model", "kept_model")
    found = row.first()
    if found is None:
        return State("a", configured_model())
    return State(*found)
