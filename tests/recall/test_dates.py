from __future__ import annotations

from datetime import UTC, datetime

import pytest

from recall.dates import windows

# Words and dates only: the SQLite run has it; PostgreSQL would repeat it for nothing.
pytestmark = pytest.mark.no_database

NOW = datetime(2026, 11, 22, 15, 30, tzinfo=UTC)  # a Sunday


def _spans(query: str) -> list[tuple]:
    return [(w.start, w.end, w.month, w.day) for w in windows(query, NOW)]


def _day(y, m, d):
    return datetime(y, m, d, tzinfo=UTC)


@pytest.mark.parametrize(
    "query",
    [
        "What did Melanie paint on October 13, 2023?",
        "What did Melanie paint on 13 October, 2023?",
        "What did Melanie paint on the 13th of Oct 2023?",
        "what happened 2023-10-13",
    ],
)
def test_a_named_day_is_that_day_with_a_day_of_slack_either_side(query):
    assert _spans(query) == [(_day(2023, 10, 12), _day(2023, 10, 15), None, None)]


def test_months_years_and_days_without_a_year():
    assert _spans("the setback in October 2023") == [(_day(2023, 10, 1), _day(2023, 11, 1), None, None)]
    assert _spans("a trip in December 2024") == [(_day(2024, 12, 1), _day(2025, 1, 1), None, None)]
    assert _spans("how often in 2023?") == [(_day(2023, 1, 1), _day(2024, 1, 1), None, None)]
    assert _spans("camping in June") == [(None, None, 6, None)]
    assert _spans("what about May 5th") == [(None, None, 5, 5)]


def test_relative_times_count_from_now():
    # A time counted back runs to the end of the asking day: what was said about it was said then or since.
    end = _day(2026, 11, 23)
    assert _spans("what did I say yesterday") == [(_day(2026, 11, 21), end, None, None)]
    assert _spans("today") == [(_day(2026, 11, 22), end, None, None)]
    assert _spans("plans from last week") == [(_day(2026, 11, 9), end, None, None)]
    assert _spans("this week") == [(_day(2026, 11, 16), end, None, None)]
    assert _spans("last month") == [(_day(2026, 10, 1), end, None, None)]
    assert _spans("last year") == [(_day(2025, 1, 1), end, None, None)]


@pytest.mark.parametrize(
    "query",
    [
        "I may go hiking",  # the modal, not the month
        "they march on",
        "he has 2023 stamps",  # a number, not a year
        "born 2024-02-30",  # no such day
        "",
        "AND OR NOT NEAR * ^ ( ) text: 🎉" * 50,
    ],
)
def test_words_that_only_look_like_dates_name_no_time(query):
    assert windows(query, NOW) == []


def test_each_window_is_found_once_in_query_order():
    labels = [w.label for w in windows("on August 11, on August 15 2023, or in June", NOW)]
    assert labels == ["August 11", "August 15 2023", "in June"]


def test_a_range_is_one_window_from_its_first_day_to_its_last_with_the_days_between():
    (span, june) = windows("between August 11 and August 15 2023, or in June", NOW)
    assert span.label == "between August 11 and August 15 2023" and june.label == "in June"
    assert span.contains(_day(2023, 8, 13)) and span.contains(_day(2023, 8, 11))
    assert span.contains(_day(2023, 8, 15)) and not span.contains(_day(2023, 8, 20))
    assert not span.contains(_day(2022, 8, 13))  # the year the range names, not every August

    (dated,) = windows("what did I buy from 3 May 2023 to 10 June 2023?", NOW)
    assert dated.contains(_day(2023, 5, 20)) and not dated.contains(_day(2023, 6, 20))


def test_a_range_over_new_year_places_its_yearless_bound_on_the_right_side():
    (back,) = windows("between December 20 and January 5 2024", NOW)
    (ahead,) = windows("between December 20 2023 and January 5", NOW)
    for span in (back, ahead):
        assert span.contains(_day(2023, 12, 28)) and span.contains(_day(2024, 1, 2))
        assert not span.contains(_day(2024, 12, 28))


@pytest.mark.parametrize(
    "query",
    [
        "between 2023-01-01 and 2022-01-01",  # runs backwards
        "between May 5 and May 9",  # no year on either side
        "between last week and yesterday",  # counted back from today
    ],
)
def test_a_range_that_cannot_be_placed_keeps_its_two_windows(query):
    assert len(windows(query, NOW)) == 2


def test_a_month_or_day_of_any_year_contains_matching_moments():
    june, may5 = windows("in June, and on May 5", NOW)
    assert june.contains(_day(2019, 6, 30)) and not june.contains(_day(2019, 7, 1))
    assert may5.contains(_day(2021, 5, 4)) and may5.contains(_day(2021, 5, 6))
    assert not may5.contains(_day(2021, 5, 8))
