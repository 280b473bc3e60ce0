"""Every date-time the service takes in, made aware and in UTC before it is used.

A date-time without an offset is read as UTC (docs/api.md). One whose offset
pushes it past year 1 or year 9999 in UTC cannot be stored or compared: it is
a ValueError, which the schemas answer with a 422.
"""

from __future__ import annotations

from datetime import UTC, datetime


def in_utc(value: datetime) -> datetime:
    if value.tzinfo is None or value.utcoffset() is None:
        return value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except OverflowError as exc:
        raise ValueError("date-time is out of range once converted to UTC (years 1 to 9999)") from exc
