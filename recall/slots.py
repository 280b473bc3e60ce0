"""Which slot and model recall serves now: the embedder switch's row, or, without one, slot "a"
with the model the settings name (recall/switch.py changes it; docs/deployment.md).

The ground of the index: recall.vec reads it to pick a side's live table, recall.embeddings to
pick the live model, the search to pair a query's vector with the slot it was embedded for. It
reads only the settings, the switch's row and the table names, so none of those modules forms
a circle with the switch's steps (recall.switch), which read and write the whole index.
"""

from __future__ import annotations

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


def state() -> State:
    """What recall serves now (one primary-key read; no row: slot "a", the settings' model)."""
    row = EmbedderSwitch.objects.filter(pk=1).values_list("live_slot", "live_model", "building_model", "kept_model")
    found = row.first()
    if found is None:
        return State("a", configured_model())
    return State(*found)
