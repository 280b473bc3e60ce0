"""The third fused list: what a time named in the query holds (docs/recall.md, "How one recall works").

The same rule ranks facts and episodes; only the moment differs. A fact's
moment is its event_time when known, else its valid_from; an episode's is the
turn's occurred_at. `fields` names those columns in that order of preference.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet

from facts.models import Fact, Turn
from recall import fusion
from recall.dates import Window

FACT_MOMENT = ("event_time", "valid_from")
EPISODE_MOMENT = ("occurred_at",)


def _moment(times: Iterable[datetime | None]) -> datetime | None:
    return next((t for t in times if t is not None), None)


def _coarse(windows: list[Window], fields: tuple[str, ...]) -> Q:
    """A filter the database can use for rows whose moment may fall in a window (checked exactly after)."""
    coarse = Q()
    for w in windows:
        when: dict[str, object]
        if w.start is not None:
            when = {"gte": w.start, "lt": w.end}
        else:  # "in June", "May 5th": that month of any year (and its neighbours, for the day slack)
            month = w.month
            assert month is not None  # recall.dates gives every window a start or a month
            months = {month} if w.day is None else {month, month % 12 + 1, (month - 2) % 12 + 1}
            when = {"month__in": sorted(months)}
        for i, name in enumerate(fields):
            # The moment is this field only when every preferred one before it is unset.
            unset = {f"{earlier}__isnull": True for earlier in fields[:i]}
            coarse |= Q(**unset, **{f"{name}__{op}": v for op, v in when.items()})
    return coarse


def in_windows(
    base: QuerySet[Fact] | QuerySet[Turn],
    cands: dict[int, fusion.Candidate],
    windows: list[Window],
    depth: int,
    fields: tuple[str, ...],
    rows: dict[int, tuple[Any, ...]] | None = None,
    also: tuple[str, ...] = (),
) -> list[int]:
    """Rows of `base` from a time the query names: candidates first, by fused score, then the most
    recent others (from that time but matching no word), at most `depth`.

    `rows`, when given, holds the candidates' rows of `base` as the caller read them (id -> the
    columns `fields`, then `also`; a candidate `base` lacks is absent), so they are not read again;
    the rows of the others this adds are put there too, read with their columns `also`."""
    if rows is None:
        rows = {pk: tuple(columns) for pk, *columns in base.filter(pk__in=list(cands)).values_list("pk", *fields)}
    moments = {pk: _moment(rows[pk][: len(fields)]) for pk in cands if pk in rows}
    said = {pk: t for pk, t in moments.items() if t is not None}
    inside = [pk for pk, t in said.items() if any(w.contains(t) for w in windows)]
    # What was said within the time named goes before what was said about it later ("I mentioned a
    # museum two months ago" names when it was said; "what did I watch last month" may be answered
    # this month): a time counted back reaches to the asking day (recall.dates.Window.names).
    inside.sort(key=lambda pk: (not any(w.names(said[pk]) for w in windows), -cands[pk].score, -pk))
    others = base.filter(_coarse(windows, fields)).exclude(pk__in=list(cands)).order_by(f"-{fields[-1]}", "-pk")
    for pk, *columns in others.values_list("pk", *fields, *also)[: depth * 4]:
        if len(inside) >= depth:
            break
        moment = _moment(columns[: len(fields)])
        if moment is not None and any(w.contains(moment) for w in windows):
            inside.append(pk)
            rows[pk] = tuple(columns)
    return inside[:depth]
