"""PostgreSQL: ANALYZE samples none of the recall index columns that hold a person's words or
stand for them (terms, text hashes, embeddings; recall/engines/postgresql/ddl.py `UNSAMPLED`).

A partition an erasure emptied kept the sampled terms of the erased user in its live
pg_statistic row, where the compaction pass cannot reach them (the fresh-clone CI run of df5b29a,
tests/facts/test_privacy_raw_bytes_postgresql.py). A store made from here on gets the target
with its tables; on a store made before, this sets it and drops what was already sampled: a
column's samples go when its type is set again (to the same type), which also rebuilds the
indexes on it, so that is done only where samples exist (an upgrade step, requests wait; the
rebuilt index files drop the erased users' old entries too). On SQLite it does nothing.
"""

from django.db import migrations

from recall.migrations._engine import OnlyOn

TYPES = {"term": "text", "text_hash": "text", "embedding": "vector"}


def _kinds(ddl) -> dict[str, str]:
    """Each recall index table of the store -> its kind in ddl.UNSAMPLED."""
    kinds = {}
    for t in ddl.SIDES:
        kinds |= {t.doc: "doc", t.fts: "fts", t.vector: "vector", ddl.SLOT_B[t]: "vector"}
    return kinds


def no_samples(apps, schema_editor):
    from recall.engines.postgresql import ddl

    connection = schema_editor.connection
    present = set(connection.introspection.table_names())
    with connection.cursor() as cursor:
        for table, kind in _kinds(ddl).items():
            if table not in present:
                continue
            for statement in ddl.unsampled(table, kind):
                cursor.execute(statement)
            for column in ddl.UNSAMPLED[kind]:
                cursor.execute(
                    "SELECT EXISTS (SELECT 1 FROM pg_stats WHERE attname = %s AND tablename LIKE %s)",
                    [column, f"{table}%"],
                )
                if cursor.fetchone()[0]:
                    # Names are this module's and ddl's constants, never input.
                    cursor.execute(f"ALTER TABLE {table} ALTER COLUMN {column} TYPE {TYPES[column]}")


def default_samples(apps, schema_editor):
    from recall.engines.postgresql import ddl

    present = set(schema_editor.connection.introspection.table_names())
    with schema_editor.connection.cursor() as cursor:
        for table, kind in _kinds(ddl).items():
            if table in present:
                for column in ddl.UNSAMPLED[kind]:
                    cursor.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET STATISTICS -1")


class Migration(migrations.Migration):
    dependencies = [("recall", "0010_embedder_switch")]

    operations = [OnlyOn("postgresql", migrations.RunPython(no_samples, default_samples))]
