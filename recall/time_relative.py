"""Times counted back from when the question is asked ("two weeks ago", "last Tuesday", "in the past
month"), read by recall.dates (docs/recall.md, "Time in the query").

Such a phrase names when something happened; what was said about it was said then or later, up to
the asking: "what did I watch last month?" is answered by a turn said this month about last month.
So each window runs from the time named to the end of the asking day. A window that would start
before the calendar's first day is none at all; one that reaches past its last day stops there.
"""

from __future__ import annotations

import re
from calendar import monthrange
from datetime import UTC, datetime, timedelta
from typing import Any

from recall.time_window import FIRST, LAST, Window

DAY = timedelta(days=1)
_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
_COUNT = r"(\d{1,3}|(?:a\s+)?couple\s+of|" + "|".join(_WORDS) + r")"
_UNIT = r"(day|week|month|year)s?"
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_LAST = r"(?:last|this\s+past)"

# Longest forms first (recall.dates reads them in this order; a span read once is not read again).
FORMS: list[tuple[str, re.Pattern[str]]] = [
    # "in the last month", "over the past two weeks": the time up to now.
    (
        "trailing",
        re.compile(rf"\b(?:in|over|during|within|for)\s+the\s+(?:last|past)\s+(?:{_COUNT}\s+)?{_UNIT}\b", re.I),
    ),
    ("ago", re.compile(rf"\b{_COUNT}\s+{_UNIT}\s+ago\b", re.I)),
    ("weekday", re.compile(rf"\b{_LAST}\s+({'|'.join(_WEEKDAYS)})\b", re.I)),
    ("weekend", re.compile(rf"\b{_LAST}\s+weekend\b", re.I)),
]


def _count(word: str) -> int:
    word = " ".join(word.lower().split())
    return 2 if word.endswith("couple of") else _WORDS.get(word) or int(word)


def _back(moment: datetime, months: int) -> datetime | None:
    """The same day `months` calendar months earlier (that month's last day when it is shorter)."""
    year, month = divmod(moment.year * 12 + moment.month - 1 - months, 12)
    if year < 1:
        return None
    return moment.replace(year=year, month=month + 1, day=min(moment.day, monthrange(year, month + 1)[1]))


def _ago(count: int, unit: str, today: datetime) -> tuple[datetime | None, timedelta]:
    """The day `count` units before today, and the slack of a figure rounded to that unit (half of one)."""
    try:
        if unit == "day":
            return today - count * DAY, DAY
        if unit == "week":
            return today - count * 7 * DAY, timedelta(days=3)
    except OverflowError:
        return None, DAY
    months = count if unit == "month" else 12 * count
    return _back(today, months), timedelta(days=15) if unit == "month" else timedelta(days=182)


def _latest_before(today: datetime, weekday: int) -> datetime:
    """The latest such weekday strictly before today ("last Saturday" said on a Saturday: a week ago)."""
    return today - timedelta(days=(today.weekday() - weekday - 1) % 7 + 1)


def start_of(kind: str, groups: tuple[str | Any, ...], today: datetime) -> datetime | None:
    """When the named time starts (the slack of a rounded figure included); None when the time named
    lies before the calendar's first day."""

    try:
        if kind == "trailing":
            return _ago(_count(groups[0]) if groups[0] else 1, groups[1].lower(), today)[0]
        if kind == "ago":
            centre, slack = _ago(_count(groups[0]), groups[1].lower(), today)
            return None if centre is None else max(FIRST + slack, centre) - slack
        if kind == "weekday":
            day = _latest_before(today, _WEEKDAYS.index(groups[0].lower()))
        else:  # the weekend: the Saturday of the week before this one (Monday to Sunday)
            day = today - timedelta(days=today.weekday() + 2)
        return max(FIRST + DAY, day) - DAY  # the named day, with a day of slack before it
    except (OverflowError, ValueError):
        return None


def _named_days(kind: str) -> timedelta | None:
    """How long the time named lasts from its start, slack included: a day with a day either side,
    a weekend from Friday to Monday; a figure counted back is measured from its centre (read)."""
    return {"weekday": 3 * DAY, "weekend": 4 * DAY}.get(kind)


def read(kind: str, groups: tuple[str | Any, ...], text: str, now: datetime) -> Window | None:
    """The window from the time named to the end of the asking day, and where the time named ends."""

    today = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    start = start_of(kind, groups, today)
    if start is None:
        return None
    try:
        end = today + DAY
    except OverflowError:
        end = LAST
    if start >= end:
        return None
    named_end = None  # "in the past month": the time named is the reach itself
    try:
        if kind == "ago":
            centre, slack = _ago(_count(groups[0]), groups[1].lower(), today)
            named_end = None if centre is None else centre + slack + DAY
        elif (days := _named_days(kind)) is not None:
            named_end = start + days
    except OverflowError:
        named_end = LAST
    return Window(text, start, end, named_end=None if named_end is None else min(named_end, end))
