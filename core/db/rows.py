"""Deleting rows in one statement that keeps the caller's filter.

`QuerySet.delete()` hands the rows to Django's collector, which finds each foreign key's
referrers by the rows' ids alone and deletes the rows by id. On PostgreSQL the tables holding a
person's words are partitioned by person (core/db/partitioned_tables.py), and a statement by id
alone is planned and probed on every partition (64 by default, docs/measurements.md §20). The
services that forget a fact or withdraw a turn remove or unlink the referrers themselves, each
statement naming the person, then delete the rows here.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet


def delete_unreferenced(rows: QuerySet[Any]) -> int:
    """Delete `rows` with one DELETE under the queryset's own filter, without the collector.
    Only for rows nothing refers to any more: a referrer left behind fails the foreign key at
    commit, or on PostgreSQL, where a few of them are not enforced (facts_factentity), stays."""
    return rows._raw_delete(rows.db)
