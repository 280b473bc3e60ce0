"""Times counted back from the asking moment ("two weeks ago", "last Tuesday", "in the past month"):
each reads as the time it names, from its start (with the slack of a rounded figure) to the end of the
asking day, since what was said about a time was said then or later (recall.time_relative)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from recall.dates import windows

# Words and dates only: the SQLite run has it; PostgreSQL would repeat it for nothing.
pytestmark = pytest.mark.no_database

THURSDAY = datetime(2023, 3, 9, 15, 30, tzinfo=UTC)


def _day(y, m, d):
    return datetime(y, m, d, tzinfo=UTC)


def _span(query: str, now: datetime = THURSDAY) -> tuple[datetime | None, datetime | None]:
    [window] = windows(query, now)
    return window.start, window.end


END = _day(2023, 3, 10)  # the end of the asking day


@pytest.mark.parametrize(
    ("query", "start"),
    [
        ("what did I buy yesterday?", _day(2023, 3, 8)),
        ("the jewelry I got last Saturday", _day(2023, 3, 3)),  # Saturday 4 March, a day of slack before
        ("what did I do this past Monday", _day(2023, 3, 5)),  # Monday 6 March
        ("last Thursday", _day(2023, 3, 1)),  # on a Thursday: the one a week before
        ("where did I go last weekend", _day(2023, 3, 3)),  # Saturday 4 March, Sunday 5
        ("a couple of days ago", _day(2023, 3, 6)),  # 7 March, a day either side
        ("3 days ago", _day(2023, 3, 5)),
        ("a week ago", _day(2023, 2, 27)),  # 2 March, half a week either side
        ("two weeks ago", _day(2023, 2, 20)),
        ("I mentioned a museum two months ago", _day(2022, 12, 25)),  # 9 January, half a month either side
        ("a year ago", _day(2021, 9, 8)),  # 9 March 2022, 182 days either side
        ("plans from last week", _day(2023, 2, 27)),  # the week of Monday 27 February
        ("last month", _day(2023, 2, 1)),
        ("last year", _day(2022, 1, 1)),
        ("plants I bought in the last month", _day(2023, 2, 9)),  # the month up to now, not February
        ("over the past two weeks", _day(2023, 2, 23)),
        ("graduations in the past three months", _day(2022, 12, 9)),
        ("during the past year", _day(2022, 3, 9)),
    ],
)
def test_a_time_counted_back_runs_from_its_start_to_the_end_of_the_asking_day(query, start):
    assert _span(query) == (start, END)


def test_months_and_years_counted_back_cross_month_and_year_ends():
    may31 = _day(2023, 5, 31)
    assert _span("two months ago", may31)[0] == _day(2023, 3, 16)  # 31 March - 15 days
    assert _span("three months ago", may31)[0] == _day(2023, 2, 13)  # 28 February (no 31st) - 15 days
    assert _span("three months ago", _day(2024, 5, 31))[0] == _day(2024, 2, 14)  # 29 February in a leap year
    assert _span("a month ago", _day(2023, 1, 15))[0] == _day(2022, 11, 30)  # 15 December - 15 days
    assert _span("a year ago", _day(2024, 2, 29))[0] == _day(2022, 8, 30)  # 28 February 2023 - 182 days
    assert _span("last month", _day(2023, 1, 15)) == (_day(2022, 12, 1), _day(2023, 1, 16))
    assert _span("last week", _day(2023, 1, 2)) == (_day(2022, 12, 26), _day(2023, 1, 3))  # a Monday
    assert _span("last Sunday", _day(2023, 1, 2))[0] == _day(2022, 12, 31)  # the day before, slack a day
    assert _span("last weekend", _day(2023, 1, 1))[0] == _day(2022, 12, 23)  # a Sunday: the weekend before
    assert _span("in the past 2 weeks", _day(2023, 1, 5)) == (_day(2022, 12, 22), _day(2023, 1, 6))


def test_a_time_counted_back_before_the_first_day_is_no_window():
    first = datetime.min.replace(tzinfo=UTC)
    assert windows("two years ago", _day(1, 6, 1)) == []
    assert windows("999 days ago", _day(2, 1, 1)) == []
    assert windows("last Tuesday", first) == []
    assert windows("a week ago", _day(1, 1, 5)) == []  # 29 December of year 0: before the calendar
    [week] = windows("a week ago", _day(1, 1, 9))  # 2 January of year 1, its slack held at the first day
    assert week.start == first and week.end == _day(1, 1, 10)


@pytest.mark.parametrize(
    "query",
    [
        "I may go hiking",
        "they march on",
        "Tuesday's child is full of grace",
        "What time do I wake up on Tuesdays and Thursdays?",
        "How many days ago did I buy a smoker?",  # asks for a count: names no time
        "How many months ago did I attend the workshop?",
        "the order of airlines I flew with before today",  # a bound on the whole history, not a time
        "everything until today",
        "a week in Rome",
        "the past is the past",
        "years ago I lived in Porto",
        "a few days ago",  # no number to count back: not read
    ],
)
def test_sentences_without_a_time_counted_back_name_no_window(query):
    assert windows(query, THURSDAY) == []


def test_a_time_counted_back_names_a_shorter_time_than_it_reaches():
    [saturday] = windows("last Saturday", THURSDAY)
    assert saturday.named_end == _day(2023, 3, 6)  # Friday to Sunday: the day with a day either side
    assert saturday.names(_day(2023, 3, 4)) and not saturday.names(_day(2023, 3, 7))
    assert saturday.contains(_day(2023, 3, 7))  # said since, about it
    [months] = windows("two months ago", THURSDAY)
    assert months.named_end == _day(2023, 1, 25)  # 9 January, half a month either side
    [month] = windows("last month", THURSDAY)
    assert month.named_end == _day(2023, 3, 1)
    [trailing] = windows("in the past month", THURSDAY)
    assert trailing.named_end is None and trailing.names(_day(2023, 3, 9))
    [outright] = windows("in May 2023", THURSDAY)
    assert outright.named_end is None and outright.names(_day(2023, 5, 31))
