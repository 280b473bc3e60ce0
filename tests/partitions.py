"""What the PostgreSQL tests of the hash partitions by user read: which partition holds a
user's rows, and whether a table is partitioned (facts 0010, profiles 0002, recall 0009)."""

from __future__ import annotations

from django.db import connection


def relation_of(table: str, user) -> str:
    """The relation (partition, or the whole table) holding `user`'s rows of `table`."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT DISTINCT tableoid::regclass::text FROM {table} WHERE user_id = %s", [user.pk])
        rows = cursor.fetchall()
    assert len(rows) == 1, (table, rows)
    return rows[0][0]


def shape(tables: list[str]) -> dict[str, tuple[str, int]]:
    """table -> (relkind: "p" partitioned, "r" whole; its number of partitions)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, c.relkind, (SELECT count(*) FROM pg_inherits i WHERE i.inhparent = c.oid) "
            "FROM pg_class c WHERE c.relname = ANY(%s)",
            [list(tables)],
        )
        return {name: (kind, count) for name, kind, count in cursor.fetchall()}
