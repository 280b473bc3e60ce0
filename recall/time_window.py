"""A time a query names, as a window on the calendar: what recall.dates reads out of a query and
recall.time_relative counts back from `as_of`, and what recall.time_list ranks by."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

# A named day also matches the day either side: "on the 13th" late at night in
# another time zone is still that conversation.
DAY_SLACK = timedelta(days=1)

FIRST = datetime.min.replace(tzinfo=UTC)
LAST = datetime.max.replace(tzinfo=UTC)


def shift(moment: datetime, delta: timedelta) -> datetime:
    """moment + delta, held inside the calendar (datetime raises OverflowError past either end)."""
    try:
        return moment + delta
    except OverflowError:
        return FIRST if delta < timedelta(0) else LAST


@dataclass(frozen=True)
class Window:
    """[start, end) in UTC; `year` None means that month or day of any year. A time counted back
    reaches to the asking day; `named_end` is where the time it names ends (recall.time_list ranks
    what was said within it before what was said about it later)."""

    label: str
    start: datetime | None = None
    end: datetime | None = None
    month: int | None = None
    day: int | None = None
    named_end: datetime | None = None

    def names(self, moment: datetime) -> bool:
        """Inside the time the phrase names, not only in its reach to the asking day."""
        if self.named_end is None:
            return self.contains(moment)
        return self.start is not None and self.start <= moment < self.named_end

    def contains(self, moment: datetime) -> bool:
        if self.start is not None and self.end is not None:
            return self.start <= moment < self.end
        if self.month is None:
            return False
        if moment.month != self.month and self.day is None:
            return False
        if self.day is None:
            return True
        for year in (moment.year - 1, moment.year, moment.year + 1):
            try:
                centre = datetime(year, self.month, self.day, tzinfo=UTC)
            except ValueError:
                continue
            end = shift(centre, timedelta(days=1) + DAY_SLACK)
            # Held at the calendar's last moment, the end takes it in (a moment cannot pass it).
            if shift(centre, -DAY_SLACK) <= moment and (moment < end or end == LAST):
                return True
        return False
