"""Statements that name the people whose rows they read or write.

Every index table is hash-partitioned by person (recall/engines/postgresql/ddl.py). A statement
finding rows by id alone is planned and probed on every partition (64 by default); with the
people named as constants the planner keeps their partitions only (docs/measurements.md §20).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def naming_people(sql: str, params: list[Any], users: Iterable[int] | None) -> tuple[str, list[Any]]:
    """`sql`, whose WHERE clause ends it, narrowed to these people's rows (unchanged when the
    caller does not know them)."""
    if users is None:
        return sql, params
    return sql + " AND user_id = ANY(%s)", [*params, sorted({int(u) for u in users})]
