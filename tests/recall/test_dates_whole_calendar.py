"""The date reader over the whole calendar datetime can hold (issue 33, item 5): for any day of
years 1 to 9999 written in every form the reader knows, and any `now` in that range, reading
never raises, every window lies inside the calendar, and it contains the day it names."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from recall.dates import FIRST, LAST, Window, windows

# Words and dates only: the SQLite run has it; PostgreSQL would repeat it for nothing.
pytestmark = pytest.mark.no_database

MONTHS = [datetime(2000, m, 1).strftime("%B") for m in range(1, 13)]
RELATIVE = ["today", "yesterday", "this week", "last week", "this month", "last month", "this year", "last year"]
RELATIVE += ["two weeks ago", "999 years ago", "3 months ago", "last Tuesday", "last weekend", "in the past month"]

moments = st.datetimes(min_value=datetime.min, max_value=datetime.max, timezones=st.just(UTC))
# Hypothesis leans towards the ends of a range; name them too, so every run tries them.
ends = st.sampled_from([FIRST, LAST, FIRST + timedelta(hours=12), LAST - timedelta(hours=12)])
nows = st.one_of(ends, moments)
# The years the spelled-out forms read ("in March 2023").
recent = st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2099, 12, 31), timezones=st.just(UTC))


def _forms(day: datetime) -> list[tuple[str, bool]]:
    """Every way the reader can be asked for `day`, each with whether its windows must hold that day:
    a year spelled out is read for 1900-2099 only (elsewhere "in May 5" is May 5 of any year)."""
    month = MONTHS[day.month - 1]
    spelled = 1900 <= day.year <= 2099
    return [
        (f"{day.year:04d}-{day.month:02d}-{day.day:02d}", True),
        (f"on {day.day} {month}, {day.year}", spelled),
        (f"on {month} {day.day}, {day.year}", spelled),
        (f"on the {day.day}th of {month[:3]} {day.year}", spelled),
        (f"in {month} {day.year}", spelled),
        (f"in {day.year}", spelled),
        (f"on {day.day} {month}", True),
        (f"on {month} {day.day}", True),
        (f"in {month}", True),
    ]


def _inside_the_calendar(found: list[Window]) -> None:
    for window in found:
        if window.start is not None:
            assert window.end is not None
            assert FIRST <= window.start < window.end <= LAST, window
        else:
            assert window.month is not None


@settings(max_examples=400, deadline=None, database=None)
@given(day=st.one_of(ends, recent, moments), now=nows)
def test_every_form_of_every_day_reads_inside_the_calendar_and_holds_that_day(day, now):
    noon = day.replace(hour=12, minute=0, second=0, microsecond=0)
    for phrase, holds_the_day in _forms(day):
        found = windows(f"what happened {phrase}?", now)
        _inside_the_calendar(found)
        assert found or not holds_the_day, phrase
        for window in found if holds_the_day else ():
            assert window.contains(noon), (phrase, window)


@settings(max_examples=400, deadline=None, database=None)
@given(now=nows)
def test_relative_times_from_any_now_read_inside_the_calendar(now):
    for word in RELATIVE:
        found = windows(f"what did I say {word}", now)
        _inside_the_calendar(found)
        if word in ("today", "this week", "this month", "this year") and now < LAST:
            # Windows end before their `end`: the calendar's very last microsecond is the one moment outside.
            assert [w.contains(now) for w in found] == [True], (word, found)


@settings(max_examples=200, deadline=None, database=None)
@given(now=nows)
def test_a_time_before_the_first_day_is_no_window(now):
    day_one = now.date() == FIRST.date()
    assert (windows("yesterday", now) == []) == day_one
    if not day_one:
        [yesterday] = windows("yesterday", now)
        assert yesterday.contains(now - timedelta(days=1))
    assert (windows("last year", now) == []) == (now.year == 1)
    assert (windows("last month", now) == []) == (now.year == 1 and now.month == 1)


@settings(max_examples=400, deadline=None, database=None)
@given(moment=nows, month=st.integers(1, 12), day=st.integers(1, 31))
# The calendar's last moment on its last day (found by this test once: the window's end, held at
# that moment, left it out).
@example(moment=LAST, month=12, day=31)
def test_a_day_of_any_year_checks_any_moment_without_raising(moment, month, day):
    window = Window("a day of any year", month=month, day=day)
    centre_years = [y for y in (moment.year - 1, moment.year, moment.year + 1) if 1 <= y <= 9999]
    held = window.contains(moment)
    if moment.month == month and moment.day == day:
        assert held
    if held:  # within the day's slack of that day in a neighbouring year
        assert any(_near(moment, y, month, day) for y in centre_years)


def _near(moment: datetime, year: int, month: int, day: int) -> bool:
    try:
        centre = datetime(year, month, day, tzinfo=UTC)
    except ValueError:
        return False
    return abs((moment - centre).total_seconds()) <= 3 * 86400
