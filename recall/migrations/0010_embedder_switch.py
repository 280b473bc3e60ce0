"""The second vector table of each side and the row saying which one recall serves, for
changing the embedding model on a live store (recall/switch.py, docs/deployment.md).

recall_vector_b and recall_episode_vector_b have the layout of recall_vector and
recall_episode_vector on each engine: on SQLite float32 blobs with an index on the user, on
PostgreSQL made by recall/engines/postgresql/ddl.py, partitioned like the others. They stay
empty until an operator builds another model's vectors.
"""

from django.db import migrations, models

from recall.migrations._engine import OnlyOn

SQLITE = []
for table, id_column in (("recall_vector_b", "fact_id"), ("recall_episode_vector_b", "turn_id")):
    SQLITE += [
        f"""CREATE TABLE {table} (
            {id_column} INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL,
            model TEXT NOT NULL,
            text_hash TEXT NOT NULL,
            embedding BLOB NOT NULL
        )""",
        f"CREATE INDEX {table}_user ON {table}(user_id)",
    ]
DROP = ["DROP TABLE IF EXISTS recall_vector_b", "DROP TABLE IF EXISTS recall_episode_vector_b"]


def postgresql_tables(apps, schema_editor):
    from recall.engines.postgresql import ddl

    with schema_editor.connection.cursor() as cursor:
        for table, id_column in (("recall_vector_b", "fact_id"), ("recall_episode_vector_b", "turn_id")):
            for statement in ddl.create_vector_table(table, id_column, ddl.partition_count()):
                cursor.execute(statement)


def postgresql_drop(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        for statement in DROP:
            cursor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("recall", "0009_postgresql_partitions")]

    operations = [
        migrations.CreateModel(
            name="EmbedderSwitch",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("live_slot", models.CharField(default="a", max_length=1)),
                ("live_model", models.CharField(max_length=200)),
                ("building_model", models.CharField(blank=True, default="", max_length=200)),
                ("kept_model", models.CharField(blank=True, default="", max_length=200)),
                ("switched_at", models.DateTimeField(blank=True, null=True)),
            ],
        ),
        OnlyOn("sqlite", migrations.RunSQL(sql=SQLITE, reverse_sql=DROP)),
        OnlyOn("postgresql", migrations.RunPython(postgresql_tables, postgresql_drop)),
    ]
