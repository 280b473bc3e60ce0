"""PostgreSQL: the Django-model tables that hold a person's words, hash-partitioned by user.

Why: an erasure's deleted rows leave the table files only when the table is rewritten
(VACUUM FULL, memory_service/db/compactor.py), and a rewrite holds ACCESS EXCLUSIVE on what it
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

`convert` works in the caller's transaction (a migration's): each table is renamed aside,
made again, filled in one INSERT ... SELECT and the old one dropped; a failure changes
nothing. `partitions` 0 makes the tables whole again (the reverse migration). Names are
constants of the migrations, never input.
"""

from __future__ import annotations

from django.db import migrations
from django.db.backends.base.base import BaseDatabaseWrapper

USER = "user_id"

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


def convert(connection: BaseDatabaseWrapper, tables: list[str], partitions: int) -> None:
    """Make each of `tables` partitioned by hash of user_id in `partitions` slices (0: whole),
    keeping every row, and the foreign keys that reference them composite (or whole again)."""
    with connection.cursor() as cursor:
        # Django's foreign keys are deferred: the copies' checks would wait for the commit as
        # pending trigger events, and PostgreSQL alters no table that has some.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        incoming = _references_to(cursor, tables)
        for name, table, _ in incoming:
            cursor.execute(f"ALTER TABLE {table} DROP CONSTRAINT {name}")
        for table in tables:
            _rebuild(cursor, table, partitions)
        for name, table, (columns, target) in incoming:
            _reference(cursor, name, table, columns, target, partitions)


def migration(tables: list[str]) -> migrations.RunPython:
    """The operation of a migration that partitions `tables` by user on PostgreSQL (with the
    settings' count at the time it runs) and makes them whole again in reverse; nothing on SQLite."""

    def partition(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "postgresql":
            from django.conf import settings

            convert(schema_editor.connection, tables, settings.MEMORY_POSTGRES_PARTITIONS)

    def make_whole(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "postgresql":
            convert(schema_editor.connection, tables, 0)

    return migrations.RunPython(partition, make_whole)


def _references_to(cursor, tables: list[str]) -> list[tuple[str, str, tuple[list[str], str]]]:
    """Foreign keys (from any table) to one of `tables`: (name, table, (columns, target))."""
    found = {}
    for table in tables:
        cursor.execute(CONSTRAINTS, [table, table])
        for name, kind, owner, columns, target, _, _ in cursor.fetchall():
            if kind == "f" and target == table:
                # A composite reference (partitioned) names user_id too: the column is the other one.
                found[(owner, name)] = ([c for c in columns if c != USER] or columns, target)
    return [(name, owner, ref) for (owner, name), ref in sorted(found.items())]


def _reference(cursor, name: str, table: str, columns: list[str], target: str, partitions: int) -> None:
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


def _rebuild(cursor, table: str, partitions: int) -> None:
    old = f"{table}_old"
    cursor.execute(PLAIN_INDEXES, [table])
    indexes = [row[0] for row in cursor.fetchall()]
    cursor.execute(CONSTRAINTS, [table, table])
    own = [row for row in cursor.fetchall() if row[2] == table]
    sequence = _sequence_state(cursor, table)
    # Every name of the old table, its partitions, indexes and keys is taken aside.
    cursor.execute(TREE, [table, table])
    for name, is_index in cursor.fetchall():
        cursor.execute(f"ALTER {'INDEX' if is_index else 'TABLE'} {name} RENAME TO {name}_old")
    cursor.execute(f"CREATE TABLE {table} (LIKE {old} INCLUDING DEFAULTS INCLUDING CONSTRAINTS){_by_user(partitions)}")
    for i in range(max(partitions, 0)):
        cursor.execute(
            f"CREATE TABLE {table}_p{i} PARTITION OF {table} FOR VALUES WITH (MODULUS {partitions}, REMAINDER {i})"
        )
    for name, kind, _, columns, target, _, definition in own:
        if kind == "f" and target == table:
            continue  # a reference to itself: made again with the incoming ones (convert)
        if kind in ("p", "u"):
            definition = f"{'PRIMARY KEY' if kind == 'p' else 'UNIQUE'} ({', '.join(_key(columns, kind, partitions))})"
        cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT {name} {definition}")
    for definition in indexes:
        cursor.execute(definition)
    cursor.execute(f"INSERT INTO {table} SELECT * FROM {old}")
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


def _sequence_state(cursor, table: str) -> tuple[str, int, bool, bool]:
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


def _own_sequence(cursor, table: str, state: tuple[str, int, bool, bool]) -> None:
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
