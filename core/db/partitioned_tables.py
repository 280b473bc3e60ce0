"""PostgreSQL: the Django-model tables that hold a person's words, hash-partitioned by user.

Why: an erasure's deleted rows leave the table files only when the table is rewritten
(VACUUM FULL, recall/engines/postgresql/compactor.py), and a rewrite holds ACCESS EXCLUSIVE on what it
copies. Rewriting the whole `facts_fact` held every tenant's recall for 1.9-11 s at a 1 GB
store (docs/measurements.md §17). Partitioned `BY HASH (user_id)` like the recall index
(recall/engines/postgresql/ddl.py), the pass rewrites only the erased users' slices.

What changes on the database only (Django's state is unchanged, it still sees `id` as the
primary key):
- the primary key is `(id, user_id)` (a partitioned table's unique keys must hold its
  partition key; `id` first, so a lookup by id still uses it), and each unique key gains
  `user_id` at its end when it lacks it (`facts_fact.uuid` becomes `(uuid, user_id)`);
  ids stay globally unique: they come from one sequence, `<table>_id_seq`, owned by `id`;
- a foreign key to a partitioned table must name a unique key of it, so it becomes
  `(user_id, col) -> (user_id, id)` where the referencing table has `user_id`, and is
  dropped where it has none (`facts_factentity`: the ORM's CASCADE deletes its rows before
  the fact or entity, docs/scaling.md); both sides of every such reference are one user's;
- the other indexes, checks and foreign keys are the old table's, under the same names.

`convert` works in the caller's transaction (a migration's, or `manage.py repartition`'s,
which rebuilds MODEL_TABLES at another count on a live store): each table is renamed aside,
made again, filled in one INSERT ... SELECT, given its keys and indexes and the old one
dropped; a failure changes nothing. `partitions` 0 makes the tables whole again (the reverse
migration). Names are constants of the migrations and of this module, never input.

`layout` and `table_sizes` read what the store has (catalog and file sizes, no table
scan): the count `MEMORY_POSTGRES_PARTITIONS` asked for when the migrations ran may not be
the count the store has, and a slice's size is what bounds a compaction rewrite's lock hold
(core/checks.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from django.db import migrations
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


class Cursor(Protocol):
    """Django's cursor in a migration, or psycopg's own in repartition: what these steps use."""

    def execute(self, query: Any, params: Any = ...) -> Any: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> Any: ...


USER = "user_id"
# The Django-model tables partitioned by user (facts 0010, profiles 0002), as they stand now:
# the family `manage.py repartition` rebuilds beside the recall index (recall/engines/postgresql/ddl.py).
MODEL_TABLES = ["facts_turn", "facts_fact", "facts_facthistory", "facts_entity", "facts_edge", "profiles_profile"]

# Every relation of a table: itself, its partitions, and their indexes.
TREE = """
WITH tree AS (SELECT %s::regclass AS relid UNION SELECT relid FROM pg_partition_tree(%s::regclass))
SELECT c.relname, false FROM tree JOIN pg_class c ON c.oid = tree.relid
UNION ALL
SELECT c.relname, true FROM tree JOIN pg_index i ON i.indrelid = tree.relid JOIN pg_class c ON c.oid = i.indexrelid
"""

# The table's own indexes that back no constraint (those are made with their constraint).
PLAIN_INDEXES = """
SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i
WHERE i.indrelid = %s::regclass
  AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.conrelid = i.indrelid)
ORDER BY i.indexrelid
"""

# The columns whose statistics target was set (-1, or NULL from PostgreSQL 17, is the default).
STATISTICS_TARGETS = """
SELECT attname, attstattarget FROM pg_attribute
WHERE attrelid = %s::regclass AND attnum > 0 AND NOT attisdropped AND attstattarget >= 0
ORDER BY attnum
"""

# name, kind (p, u, f), columns, referenced table, referenced columns, definition
CONSTRAINTS = """
SELECT k.conname, k.contype, k.conrelid::regclass::text,
       ARRAY(SELECT a.attname FROM unnest(k.conkey) WITH ORDINALITY AS c(n, o)
             JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = c.n ORDER BY c.o)::text[],
       k.confrelid::regclass::text,
       ARRAY(SELECT a.attname FROM unnest(k.confkey) WITH ORDINALITY AS c(n, o)
             JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = c.n ORDER BY c.o)::text[],
       pg_get_constraintdef(k.oid)
FROM pg_constraint k
WHERE k.contype IN ('p', 'u', 'f') AND k.conparentid = 0 AND (k.conrelid = %s::regclass OR k.confrelid = %s::regclass)
"""


def convert(
    connection: BaseDatabaseWrapper,
    tables: list[str],
    partitions: int,
    progress: Callable[[str], None] | None = None,
) -> None:
    """Make each of `tables` partitioned by hash of user_id in `partitions` slices (0: whole),
    from whole or from any other count, keeping every row, and the foreign keys that reference
    them composite (or whole again). `progress` hears each table's name once it is rebuilt."""
    with connection.cursor() as cursor:
        # Django's foreign keys are deferred: the copies' checks would wait for the commit as
        # pending trigger events, and PostgreSQL alters no table that has some.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        incoming = _references_to(cursor, tables)
        for name, table, _ in incoming:
            cursor.execute(f"ALTER TABLE {table} DROP CONSTRAINT {name}")
        for table in tables:
            _rebuild(cursor, table, partitions)
            if progress:
                progress(table)
        for name, table, (columns, target) in incoming:
            _reference(cursor, name, table, columns, target, partitions)


def migration(tables: list[str]) -> migrations.RunPython:
    """The operation of a migration that partitions `tables` by user (with the settings' count
    at the time it runs) and makes them whole again in reverse; the migration runs it on
    PostgreSQL only (`OnlyOn("postgresql", ...)`, core/db/only_on.py)."""

    def partition(apps: Any, schema_editor: BaseDatabaseSchemaEditor) -> None:
        from django.conf import settings

        convert(schema_editor.connection, tables, settings.MEMORY_POSTGRES_PARTITIONS)

    def make_whole(apps: Any, schema_editor: BaseDatabaseSchemaEditor) -> None:
        convert(schema_editor.connection, tables, 0)

    return migrations.RunPython(partition, make_whole)


def _references_to(cursor: Cursor, tables: list[str]) -> list[tuple[str, str, tuple[list[str], str]]]:
    """Foreign keys (from any table) to one of `tables`: (name, table, (columns, target))."""
    found = {}
    for table in tables:
        cursor.execute(CONSTRAINTS, [table, table])
        for name, kind, owner, columns, target, _, _ in cursor.fetchall():
            if kind == "f" and target == table:
                # A composite reference (partitioned) names user_id too: the column is the other one.
                found[(owner, name)] = ([c for c in columns if c != USER] or columns, target)
    return [(name, owner, ref) for (owner, name), ref in sorted(found.items())]


def _reference(cursor: Cursor, name: str, table: str, columns: list[str], target: str, partitions: int) -> None:
    cursor.execute("SELECT 1 FROM pg_attribute WHERE attrelid = %s::regclass AND attname = %s", [table, USER])
    has_user = cursor.fetchone() is not None
    (column,) = columns
    cursor.execute("SELECT relkind = 'p' FROM pg_class WHERE oid = %s::regclass", [target])
    if partitions <= 0 or not cursor.fetchone()[0]:
        key, ref = column, "id"
    elif has_user:
        key, ref = f"{USER}, {column}", f"{USER}, id"
    else:
        return  # no user_id to name the partition by: the ORM's CASCADE keeps it (module docstring)
    cursor.execute(
        f"ALTER TABLE {table} ADD CONSTRAINT {name} FOREIGN KEY ({key}) REFERENCES {target} ({ref}) "
        "DEFERRABLE INITIALLY DEFERRED"
    )


def _rebuild(cursor: Cursor, table: str, partitions: int) -> None:
    old = f"{table}_old"
    cursor.execute(PLAIN_INDEXES, [table])
    # A partitioned table's index is printed `ON ONLY` (its partitions' indexes are attached
    # one by one): the new one is made on the table and each partition at once.
    indexes = [row[0].replace(" ON ONLY ", " ON ", 1) for row in cursor.fetchall()]
    cursor.execute(CONSTRAINTS, [table, table])
    own = [row for row in cursor.fetchall() if row[2] == table]
    sequence = _sequence_state(cursor, table)
    # Column statistics targets (facts 0011 sets the columns of a person's words to 0): LIKE
    # does not copy them.
    cursor.execute(STATISTICS_TARGETS, [table])
    targets = cursor.fetchall()
    # Every name of the old table, its partitions, indexes and keys is taken aside.
    cursor.execute(TREE, [table, table])
    for name, is_index in cursor.fetchall():
        cursor.execute(f"ALTER {'INDEX' if is_index else 'TABLE'} {name} RENAME TO {name}_old")
    cursor.execute(f"CREATE TABLE {table} (LIKE {old} INCLUDING DEFAULTS INCLUDING CONSTRAINTS){_by_user(partitions)}")
    for i in range(max(partitions, 0)):
        cursor.execute(
            f"CREATE TABLE {table}_p{i} PARTITION OF {table} FOR VALUES WITH (MODULUS {partitions}, REMAINDER {i})"
        )
    for column, target in targets:
        # On the parent, which sets it on every partition too.
        cursor.execute(f'ALTER TABLE {table} ALTER COLUMN "{column}" SET STATISTICS {int(target)}')
    # The rows first, then the keys and indexes: one sort per index, not one insertion per row.
    cursor.execute(f"INSERT INTO {table} SELECT * FROM {old}")
    for name, kind, _, columns, target, _, definition in own:
        if kind == "f" and target == table:
            continue  # a reference to itself: made again with the incoming ones (convert)
        if kind in ("p", "u"):
            definition = f"{'PRIMARY KEY' if kind == 'p' else 'UNIQUE'} ({', '.join(_key(columns, kind, partitions))})"
        cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT {name} {definition}")
    for definition in indexes:
        cursor.execute(definition)
    if not sequence[3]:
        # The default nextval() came along (LIKE ... INCLUDING DEFAULTS): keep its sequence.
        cursor.execute(f"ALTER SEQUENCE {sequence[0]} OWNED BY NONE")
    cursor.execute(f"DROP TABLE {old}")
    _own_sequence(cursor, table, sequence)


def _by_user(partitions: int) -> str:
    return f" PARTITION BY HASH ({USER})" if partitions > 0 else ""


def _key(columns: list[str], kind: str, partitions: int) -> list[str]:
    """A key of the new table: with user_id at its end when partitioned, without it (where
    only partitioning added it) when whole."""
    if kind == "p":
        return ["id", USER] if partitions > 0 else ["id"]
    if partitions > 0:
        return columns if USER in columns else [*columns, USER]
    return columns[:-1] if len(columns) > 1 and columns[-1] == USER else columns


def _sequence_state(cursor: Cursor, table: str) -> tuple[str, int, bool, bool]:
    """The id sequence of `table` (its identity's, or the one this module made): its name,
    where it stands, and whether it is an identity's (dropped with its table)."""
    cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", [table])
    (sequence,) = cursor.fetchone()
    cursor.execute(f"SELECT last_value, is_called FROM {sequence}")
    last, called = cursor.fetchone()
    cursor.execute(
        "SELECT attidentity <> '' FROM pg_attribute WHERE attrelid = %s::regclass AND attname = 'id'", [table]
    )
    return sequence, int(last), bool(called), bool(cursor.fetchone()[0])


def _own_sequence(cursor: Cursor, table: str, state: tuple[str, int, bool, bool]) -> None:
    """One sequence gives the ids of every partition (a partition's own identity would not):
    it goes on from where the old table's stood, so no id is given twice."""
    sequence = f"{table}_id_seq"
    cursor.execute(f"CREATE SEQUENCE IF NOT EXISTS {sequence} AS bigint")
    cursor.execute(f"ALTER SEQUENCE {sequence} OWNED BY {table}.id")
    cursor.execute(f"ALTER TABLE {table} ALTER COLUMN id SET DEFAULT nextval('{sequence}'::regclass)")
    _, last, called, _ = state
    cursor.execute(f"SELECT COALESCE(MAX(id), 0) FROM {table}")
    top = max(last, int(cursor.fetchone()[0]), 1)
    cursor.execute("SELECT setval(%s::regclass, %s, %s)", [sequence, top, called or top > last])


# Every table of this schema partitioned by hash (the user-data tables of both families: the
# service makes no other): its partitions, its largest one and that one's size, and its size.
# pg_total_relation_size stats the files (heap, TOAST, indexes); it reads no row.
LAYOUT = """
SELECT p.relname, count(c.oid)::int,
       (array_agg(c.relname ORDER BY pg_total_relation_size(c.oid) DESC))[1],
       coalesce(max(pg_total_relation_size(c.oid)), 0)::bigint,
       coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint
FROM pg_partitioned_table t
JOIN pg_class p ON p.oid = t.partrelid
LEFT JOIN pg_inherits i ON i.inhparent = p.oid
LEFT JOIN pg_class c ON c.oid = i.inhrelid
WHERE t.partstrat = 'h' AND p.relnamespace = to_regnamespace(current_schema())
GROUP BY p.relname ORDER BY p.relname
"""

# A table's size with its partitions: everything (heap, TOAST, indexes), and its rows' part.
SIZES = """
SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint, coalesce(sum(pg_table_size(c.oid)), 0)::bigint
FROM pg_class c
WHERE c.oid = to_regclass(%s) OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = to_regclass(%s))
"""


# Both ends of every foreign key from or to any of the given tables.
NEIGHBOURS = """
SELECT DISTINCT k.conrelid::regclass::text, k.confrelid::regclass::text FROM pg_constraint k
WHERE k.contype = 'f' AND k.conparentid = 0
  AND (k.conrelid::regclass::text = ANY(%s) OR k.confrelid::regclass::text = ANY(%s))
"""


def neighbours(cursor: Cursor, tables: list[str]) -> tuple[list[str], list[str]]:
    """The tables outside `tables` whose foreign keys reference them (`convert` drops and makes
    those keys again: ACCESS EXCLUSIVE on the table), and those they reference (whose rows
    the new keys are checked against: SHARE ROW EXCLUSIVE)."""
    cursor.execute(NEIGHBOURS, [tables, tables])
    pairs = cursor.fetchall()
    incoming = sorted({owner for owner, target in pairs if target in tables and owner not in tables})
    outgoing = sorted({target for owner, target in pairs if owner in tables and target not in tables})
    return incoming, outgoing


@dataclass(frozen=True)
class Partitioned:
    """One hash-partitioned table as the store has it."""

    table: str
    partitions: int
    largest: str  # its largest partition
    largest_bytes: int
    total_bytes: int


def layout(cursor: Cursor) -> list[Partitioned]:
    """The store's hash-partitioned tables, by name (a DB-API cursor: Django's or psycopg's)."""
    cursor.execute(LAYOUT)
    return [
        Partitioned(name, count, largest or "", int(top), int(total))
        for name, count, largest, top, total in cursor.fetchall()
    ]


def store_layout() -> list[Partitioned]:
    """`layout` on a short connection of its own (psycopg.Error when unreachable), for the
    system check, which runs in processes that must not keep Django's connection open."""
    import psycopg
    from django.db import connection

    from core.db.pg_tools import CONNECT_SECONDS

    params = {"connect_timeout": CONNECT_SECONDS, **connection.get_connection_params()}
    with psycopg.connect(**params) as conn, conn.cursor() as cursor:
        return layout(cursor)


def table_sizes(cursor: Cursor, tables: list[str]) -> dict[str, tuple[int, int]]:
    """table -> (bytes with its indexes, bytes of its rows), partitions included."""
    sizes = {}
    for table in tables:
        cursor.execute(SIZES, [table, table])
        total, rows = cursor.fetchone()
        sizes[table] = (int(total), int(rows))
    return sizes


# A table's relations now (itself, its partitions, their indexes, TOAST tables and their
# indexes) and its partitions: a rebuild locks each of them and as many again for the new form.
RELATIONS = """
WITH tree AS (SELECT to_regclass(%s) AS relid UNION SELECT relid FROM pg_partition_tree(to_regclass(%s)))
SELECT (SELECT count(*) FROM tree)
     + (SELECT count(*) FROM pg_index i JOIN tree ON i.indrelid = tree.relid)
     + (SELECT 2 * count(*) FROM pg_class c JOIN tree ON c.oid = tree.relid WHERE c.reltoastrelid <> 0),
       (SELECT count(*) FROM tree) - 1
"""

# The server's lock table, shared by every session: a transaction may hold more than
# max_locks_per_transaction as long as the whole table has room.
LOCK_SLOTS = """
SELECT current_setting('max_locks_per_transaction')::int,
       current_setting('max_connections')::int + current_setting('max_prepared_transactions')::int
"""


def locks_needed(cursor: Cursor, tables: list[str], partitions: int) -> tuple[int, int, int]:
    """(about how many relation locks one transaction rebuilding `tables` at `partitions` holds,
    the server's lock slots, the connections they are counted per): every old and new relation
    stays locked until the commit."""
    needed = 0
    for table in tables:
        cursor.execute(RELATIONS, [table, table])
        relations, current = cursor.fetchone()
        per_slice = relations / max(int(current), 1)
        needed += int(relations + per_slice * max(partitions, 1))
    cursor.execute(LOCK_SLOTS)
    per_transaction, connections = cursor.fetchone()
    return needed, int(per_transaction) * int(connections), int(connections)
