"""What one recall reads of its candidate facts' rows, read once (docs/recall.md, "Statements").

Three steps of a recall ask about the same candidates: the time list (when each was said), facts
ranked through their turns (which have a source turn) and the category weights. Each read them on
its own, one statement each; a recall now reads them together, once per candidate, and a fact the
time list adds is read with it. The read goes through the recall's base queryset (live, or valid
at `as_of`), so it re-checks ownership and liveness: an index row that lags behind the write path
can never leak a fact.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from facts.models import Fact
from recall import time_list

# Its moment for the time list (recall.time_list.FACT_MOMENT, in that order), its category for the
# weights, its source turn for facts ranked through their turns.
COLUMNS = (*time_list.FACT_MOMENT, "category", "source_turn_id")
_CATEGORY = len(time_list.FACT_MOMENT)
_SOURCE_TURN = _CATEGORY + 1
BEYOND_MOMENT = COLUMNS[_CATEGORY:]  # what the time list reads besides the moment


class CandidateRows:
    def __init__(self, base: QuerySet[Fact]) -> None:
        self.base = base
        self.rows: dict[int, tuple[Any, ...]] = {}  # id -> COLUMNS, for the ids `base` holds
        self.asked: set[int] = set()  # every id read or added (those `base` lacks are not in rows)

    def read(self, ids: list[int]) -> None:
        """Read the rows of those ids not read yet: one statement, none when every one was."""
        missing = [fid for fid in ids if fid not in self.asked]
        if missing:
            for fid, *columns in self.base.filter(pk__in=missing).values_list("pk", *COLUMNS):
                self.rows[fid] = tuple(columns)
            self.asked.update(missing)

    def added(self, ids: list[int]) -> None:
        """These ids' rows were put in `rows` by their reader (the time list's other facts)."""
        self.asked.update(ids)

    def categories(self, ids: list[int]) -> dict[int, str]:
        """id -> category of those `base` holds (read first)."""
        self.read(ids)
        return {fid: self.rows[fid][_CATEGORY] for fid in ids if fid in self.rows}

    def with_source_turn(self, ids: list[int]) -> list[int]:
        """Those `base` holds that have a source turn (read first)."""
        self.read(ids)
        return [fid for fid in ids if fid in self.rows and self.rows[fid][_SOURCE_TURN] is not None]
