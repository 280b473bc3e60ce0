"""PostgreSQL: the one place that creates the recall index tables, hash-partitioned by user.

Why partitions: a forget's deleted rows leave the table files only when the table is
rewritten (VACUUM FULL, recall/engines/postgresql/compactor.py), and a rewrite holds ACCESS
EXCLUSIVE on what it rewrites for as long as it copies it: 3-3.6 s for a whole
`recall_fts` at a 1 GB store, growing with the store (docs/measurements.md §17). With
`PARTITION BY HASH (user_id)` the pass rewrites only the partitions that held an erased
user's rows, one at a time, so a hold is about table size / partitions, and another
tenant's request reads its own partition, which no rewrite of another slice locks.

Every recall index table on PostgreSQL, including any new vector table (a second set of
vectors beside the old ones for a live model switch), is made by `create_vector_table`,
`create_index_tables` or `convert`, so that it is partitioned like the others; `convert`
rebuilds all of them at a given count (migration 0009, and `manage.py repartition` on a live
store). The primary keys start with user_id: a partitioned table's unique keys must hold its
partition key, so `ON CONFLICT` targets are (user_id, id) (recall/engines/postgresql/vec.py).

`partitions` 0 makes a table whole (the form of migration 0008, used by the reverse
migration only). Names are the constants of recall/tables.py, never input.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.db.backends.base.base import BaseDatabaseWrapper

from recall.tables import EPISODES, EPISODES_B, FACTS, FACTS_B, Tables

SIDES = (FACTS, EPISODES)
# The other slot's vector table of each side (migration 0010): rebuilt with its side when it exists.
SLOT_B = {FACTS: FACTS_B.vector, EPISODES: EPISODES_B.vector}


def partition_count() -> int:
    return int(settings.MEMORY_POSTGRES_PARTITIONS)


def _partitioned(name: str, columns: str, partitions: int) -> list[str]:
    if partitions <= 0:
        return [f"CREATE TABLE {name} ({columns})"]
    statements = [f"CREATE TABLE {name} ({columns}) PARTITION BY HASH (user_id)"]
    statements += [
        f"CREATE TABLE {name}_p{i} PARTITION OF {name} FOR VALUES WITH (MODULUS {partitions}, REMAINDER {i})"
        for i in range(partitions)
    ]
    return statements


# Columns whose sampled values are a person's words or stand for them: the terms, the texts'
# hashes, the embeddings. ANALYZE keeps samples of a column in pg_statistic, and a partition an
# erasure empties keeps them (ANALYZE of an empty relation changes nothing), so these columns
# are never sampled: statistics target 0 (migration 0011 sets it on a store made before). The
# lookups on them go through the keys, whose plans need no sample of their values.
UNSAMPLED = {"doc": ("text_hash",), "fts": ("term",), "vector": ("text_hash", "embedding")}


def unsampled(name: str, kind: str) -> list[str]:
    """The statements that keep ANALYZE from sampling table `name`'s word columns (a partitioned
    table passes the target on to its partitions)."""
    return [f"ALTER TABLE {name} ALTER COLUMN {column} SET STATISTICS 0" for column in UNSAMPLED[kind]]


def doc_table(t: Tables, partitions: int) -> list[str]:
    key = f"PRIMARY KEY (user_id, {t.id})" if partitions > 0 else f"PRIMARY KEY ({t.id})"
    columns = (
        f"{t.id} bigint NOT NULL, user_id bigint NOT NULL, text_hash text NOT NULL, "
        f"length integer NOT NULL DEFAULT 0, {key}"
    )
    extra = [] if partitions > 0 else [f"CREATE INDEX {t.doc}_user ON {t.doc}(user_id)"]
    # By-id lookups and deletes (the indexer's) read every partition: an index on the id each.
    by_id = [f"CREATE INDEX {t.doc}_id ON {t.doc}({t.id})"] if partitions > 0 else []
    return _partitioned(t.doc, columns, partitions) + extra + by_id + unsampled(t.doc, "doc")


def fts_table(t: Tables, partitions: int) -> list[str]:
    columns = (
        "user_id bigint NOT NULL, term text NOT NULL, doc_id bigint NOT NULL, tf real NOT NULL, "
        "PRIMARY KEY (user_id, term, doc_id)"
    )
    return (
        _partitioned(t.fts, columns, partitions)
        + [f"CREATE INDEX {t.fts}_doc ON {t.fts}(doc_id)"]
        + unsampled(t.fts, "fts")
    )


def create_vector_table(name: str, id_column: str, partitions: int) -> list[str]:
    """The statements that make a vector table `name` keyed by (user_id, `id_column`)."""
    key = f"PRIMARY KEY (user_id, {id_column})" if partitions > 0 else f"PRIMARY KEY ({id_column})"
    columns = (
        f"{id_column} bigint NOT NULL, user_id bigint NOT NULL, model text NOT NULL, "
        f"text_hash text NOT NULL, embedding vector NOT NULL, {key}"
    )
    by_id = [f"CREATE INDEX {name}_id ON {name}({id_column})"] if partitions > 0 else []
    user_index = [f"CREATE INDEX {name}_user ON {name}(user_id, model)"]
    return _partitioned(name, columns, partitions) + user_index + by_id + unsampled(name, "vector")


def create_index_tables(t: Tables, partitions: int) -> list[str]:
    return doc_table(t, partitions) + fts_table(t, partitions) + create_vector_table(t.vector, t.id, partitions)


def _columns(t: Tables) -> dict[str, str]:
    return {
        t.doc: f"{t.id}, user_id, text_hash, length",
        t.fts: "user_id, term, doc_id, tf",
        t.vector: f"{t.id}, user_id, model, text_hash, embedding",
    }


# A table, its partitions (pg_partition_tree lists none for a whole table), and their indexes.
TREE = """
WITH tree AS (SELECT %s::regclass AS relid UNION SELECT relid FROM pg_partition_tree(%s::regclass))
SELECT c.relname, false FROM tree JOIN pg_class c ON c.oid = tree.relid
UNION ALL
SELECT c.relname, true FROM tree JOIN pg_index i ON i.indrelid = tree.relid JOIN pg_class c ON c.oid = i.indexrelid
"""


def index_tables(connection: BaseDatabaseWrapper) -> list[str]:
    """Every recall index table this store has (the six, and the slot-b vector tables once
    migration 0010 made them): what `convert` rebuilds."""
    names = [name for t in SIDES for name in (t.doc, t.fts, t.vector, SLOT_B[t])]
    present = set(connection.introspection.table_names())
    return [name for name in names if name in present]


def _side(t: Tables, present: list[str], partitions: int) -> dict[str, tuple[list[str], str]]:
    """table -> (the statements that make it in the form `partitions` asks for, its columns)."""
    columns = _columns(t)
    tables = {
        t.doc: (doc_table(t, partitions), columns[t.doc]),
        t.fts: (fts_table(t, partitions), columns[t.fts]),
        t.vector: (create_vector_table(t.vector, t.id, partitions), columns[t.vector]),
    }
    if SLOT_B[t] in present:
        tables[SLOT_B[t]] = (create_vector_table(SLOT_B[t], t.id, partitions), columns[t.vector])
    return tables


def convert(connection: BaseDatabaseWrapper, partitions: int, progress: Callable[[str], None] | None = None) -> None:
    """Rebuild the recall index tables in the form `partitions` asks for (0: whole), at any
    count from any count, keeping every row: the old table is renamed aside, the new one made,
    filled in one INSERT ... SELECT, indexed and the old one dropped, in the caller's
    transaction (a migration's or `manage.py repartition`'s), so a failure changes nothing.
    Requests wait for it: run it as the upgrade step it is (docs/deployment.md). `progress`
    hears each table's name once it is rebuilt."""
    present = index_tables(connection)
    with connection.cursor() as cursor:
        for t in SIDES:
            tables = _side(t, present, partitions)
            for table in tables:
                # Every name of the old table, its partitions and their indexes and keys is
                # taken aside, so the new table and partitions can have theirs.
                cursor.execute(TREE, [table, table])
                for name, is_index in cursor.fetchall():
                    cursor.execute(f"ALTER {'INDEX' if is_index else 'TABLE'} {name} RENAME TO {name}_old")
            for table, (statements, columns) in tables.items():
                # The secondary indexes are built after the rows are in: one sort each, not
                # one insertion per row.
                made = [s for s in statements if s.startswith("CREATE TABLE")]
                for statement in made:
                    cursor.execute(statement)
                cursor.execute(f"INSERT INTO {table} ({columns}) SELECT {columns} FROM {table}_old")
                for statement in statements:
                    if statement not in made:
                        cursor.execute(statement)
                cursor.execute(f"DROP TABLE {table}_old")
                if progress:
                    progress(table)
