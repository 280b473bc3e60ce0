"""PostgreSQL: the recall index tables hash-partitioned by user (recall/engines/postgresql/ddl.py).

A store made before this keeps its rows: each table is renamed aside, made again with
MEMORY_POSTGRES_PARTITIONS partitions, filled from the old one and the old one dropped,
in the migration's transaction (docs/deployment.md, "What erased means on PostgreSQL").
The reverse makes the tables whole again. On SQLite it does nothing.
"""

from django.db import migrations

from recall.migrations._engine import OnlyOn


def partition(apps, schema_editor):
    from recall.engines.postgresql import ddl

    ddl.convert(schema_editor.connection, ddl.partition_count())


def make_whole(apps, schema_editor):
    from recall.engines.postgresql import ddl

    ddl.convert(schema_editor.connection, 0)


class Migration(migrations.Migration):
    dependencies = [("recall", "0008_postgresql_index")]

    operations = [OnlyOn("postgresql", migrations.RunPython(partition, make_whole))]
