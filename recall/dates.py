"""Time windows named in a query ("on 13 October, 2023", "in June", "last week").

A query that names a time is asking about what was said or true then; recall
turns each window into a ranked list of the facts whose valid_from falls in it
(docs/design.md §5 fusion gains a third list). Only unambiguous forms are read: a bare
month needs a preposition ("in May", never the modal "may"), numeric dates only
in ISO order (2023-10-13). Relative forms count from `now` (or `as_of`); those that count back
("yesterday", "two weeks ago", "last Tuesday": recall.time_relative) run from the time they name to
the end of the asking day, since what was said about a time was said then or later.

Every window stays inside the calendar datetime can hold (years 1 to 9999): one
that runs past an end stops there, and one that lies wholly outside it ("yesterday"
on 1 January of year 1, "last year" in year 1) is no window at all.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from recall import time_relative
from recall.time_window import DAY_SLACK, FIRST, LAST, Window, shift

__all__ = ["FIRST", "LAST", "Window", "windows"]

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_MON = r"(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"((?:19|20)\d\d)"
_PREP = r"(?:in|during|since|of|on|early|late|mid|last|this|next|by|until|before|after)"

# Longest forms first; a span read by one form is not read again by a shorter one.
_FORMS: list[tuple[str, re.Pattern[str]]] = [
    ("iso", re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")),
    ("day month year", re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MON},?\s+{_YEAR}\b", re.I)),
    ("month day year", re.compile(rf"\b{_MON}\s+{_DAY},?\s+{_YEAR}\b", re.I)),
    ("month year", re.compile(rf"\b{_MON},?\s+{_YEAR}\b", re.I)),
    ("day month", re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MON}\b", re.I)),
    ("month day", re.compile(rf"\b{_MON}\s+{_DAY}\b", re.I)),
    ("month", re.compile(rf"\b{_PREP}\s+{_MON}\b", re.I)),
    ("year", re.compile(rf"\b(?:in|during|since|of|by|until|before|after)\s+{_YEAR}\b", re.I)),
    *time_relative.FORMS,
    # "before today" or "until today" bounds the whole history: it names no time.
    (
        "relative",
        re.compile(r"\b(?<!before )(?<!until )(?<!by )(today|yesterday|(?:last|this)\s+(?:week|month|year))\b", re.I),
    ),
]


def _first_of(year: int, month: int = 1) -> datetime:
    """The first moment of that month; past year 9999, the calendar's last moment."""
    return datetime(year, month, 1, tzinfo=UTC) if year <= 9999 else LAST


def _span(label: str, start: datetime, end: datetime) -> Window | None:
    # Empty once held inside the calendar: the time named lies before its first day.
    return Window(label, start, end) if start < end else None


def _day(year: int, month: int, day: int, label: str) -> Window | None:
    try:
        start = datetime(year, month, day, tzinfo=UTC)
    except ValueError:
        return None
    return _span(label, shift(start, -DAY_SLACK), shift(start, timedelta(days=1) + DAY_SLACK))


def _month(year: int, month: int, label: str) -> Window | None:
    if year < 1:
        return None
    return _span(label, _first_of(year, month), _first_of(year + (month == 12), month % 12 + 1))


def _year(year: int, label: str) -> Window | None:
    return _span(label, _first_of(year), _first_of(year + 1)) if year >= 1 else None


def _relative(word: str, now: datetime) -> Window | None:
    """today and this week, month or year as they are; yesterday and last week, month or year from
    their start to the end of the asking day (what was said about them was said then or since:
    recall.time_relative)."""
    word = " ".join(word.lower().split())
    today = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    day = timedelta(days=1)
    if word == "today":
        return _span(word, today, shift(today, day))
    if word == "yesterday":
        return _since(_span(word, shift(today, -day), today), today)
    unit = word.split()[1]
    if unit == "week":
        monday = shift(today, -timedelta(days=today.weekday()))
        if word.startswith("this"):
            return _span(word, monday, shift(monday, 7 * day))
        return _since(_span(word, shift(monday, -7 * day), monday), today)
    if unit == "month":
        year, month = today.year, today.month
        if word.startswith("this"):
            return _month(year, month, word)
        year, month = (year - 1, 12) if month == 1 else (year, month - 1)
        return _since(_month(year, month, word), today)
    if word.startswith("this"):
        return _year(today.year, word)
    return _since(_year(today.year - 1, word), today)


def _since(named: Window | None, today: datetime) -> Window | None:
    """A time named by counting back, from its start to the end of the asking day; none when the
    time named lies wholly before the calendar."""
    if named is None or named.start is None:
        return named
    reach = _span(named.label, named.start, shift(today, timedelta(days=1)))
    return None if reach is None else Window(named.label, reach.start, reach.end, named_end=named.end)


def _read(kind: str, groups: tuple[str | Any, ...], text: str, now: datetime) -> Window | None:
    def month(name: str) -> int:
        return _MONTHS[name.lower().rstrip(".")]

    if kind == "iso":
        year, mon, day = (int(g) for g in groups)
        return _day(year, mon, day, text) if 1 <= mon <= 12 else None
    if kind == "day month year":
        return _day(int(groups[2]), month(groups[1]), int(groups[0]), text)
    if kind == "month day year":
        return _day(int(groups[2]), month(groups[0]), int(groups[1]), text)
    if kind == "month year":
        return _month(int(groups[1]), month(groups[0]), text)
    if kind in ("day month", "month day"):
        mon, day = (month(groups[1]), int(groups[0])) if kind == "day month" else (month(groups[0]), int(groups[1]))
        return Window(text, month=mon, day=day) if 1 <= day <= 31 else None
    if kind == "month":
        return Window(text, month=month(groups[0]))
    if kind == "year":
        return _year(int(groups[0]), text)
    if kind == "relative":
        return _relative(groups[0], now)
    return time_relative.read(kind, groups, text, now)


def windows(query: str, now: datetime) -> list[Window]:
    """Every time window the query names, in the order found; two joined as a range ("between
    August 11 and August 15 2023", "from 3 May 2023 to 10 June 2023") are one window."""
    query = query or ""
    found: list[tuple[int, int, Window]] = []
    for kind, pattern in _FORMS:
        for match in pattern.finditer(query):
            if any(a < match.end() and match.start() < b for a, b, _ in found):
                continue
            window = _read(kind, match.groups(), match.group(0), now)
            if window is not None:
                found.append((*match.span(), window))
    return _ranges(query, sorted(found, key=lambda f: f[0]))


# "between A and B", "from A to B": a range names every day from A's first to B's last, where two
# separate windows would leave out the days in between.
_RANGE_OPENS = re.compile(r"\b(between|from)\s+$", re.I)
_RANGE_JOINS = re.compile(r"^\s*(?:and|to|until|till|through|thru|-|\u2013)\s*$", re.I)


def _ranges(query: str, found: list[tuple[int, int, Window]]) -> list[Window]:
    out: list[Window] = []
    i = 0
    while i < len(found):
        start, end, first = found[i]
        opens = _RANGE_OPENS.search(query[:start])
        if opens and i + 1 < len(found) and _RANGE_JOINS.match(query[end : found[i + 1][0]]):
            _, last_end, last = found[i + 1]
            if (span := _range(first, last, query[opens.start() : last_end])) is not None:
                out.append(span)
                i += 2
                continue
        out.append(first)
        i += 1
    return out


def _range(first: Window, last: Window, label: str) -> Window | None:
    """One window from the first's start to the last's end; a bound without a year takes the
    other's (the year before or after where the range would otherwise run backwards). None, and
    the two kept apart, when neither has a year or one is counted back from today."""
    if first.named_end is not None or last.named_end is not None:
        return None
    if first.start is None and last.start is not None:
        first = _in_year_of(first, last, back=True)
    elif last.start is None and first.start is not None:
        last = _in_year_of(last, first, back=False)
    if first.start is None or last.end is None or not first.start < last.end:
        return None
    return Window(label, first.start, last.end)


def _in_year_of(bound: Window, other: Window, *, back: bool) -> Window:
    """A month or day of any year placed in `other`'s year, or the one before (`back`) or after
    it when that year would put it on the wrong side of `other`."""
    if other.start is None or other.end is None or bound.month is None:
        return bound
    year = shift(other.start, DAY_SLACK).year
    for candidate in (year, year - 1 if back else year + 1):
        placed = _day(candidate, bound.month, bound.day, bound.label) if bound.day else None
        placed = placed or (_month(candidate, bound.month, bound.label) if not bound.day else None)
        if placed is None or placed.start is None or placed.end is None:
            continue
        if (placed.start < other.end) if back else (other.start < placed.end):
            return placed
    return bound
