"""PostgreSQL: profile versions (a projection of a person's facts, their words) hash-partitioned
by user, like facts' tables (facts/migrations/0010_partition_user_data_by_user.py). Not
profiles_contextlog: counts only, no user. On SQLite it does nothing.
"""

from django.db import migrations

TABLES = ["profiles_profile"]


def partition(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        from django.conf import settings

        from memory_service.db import partitioned_tables

        partitioned_tables.convert(schema_editor.connection, TABLES, settings.MEMORY_POSTGRES_PARTITIONS)


def make_whole(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        from memory_service.db import partitioned_tables

        partitioned_tables.convert(schema_editor.connection, TABLES, 0)


class Migration(migrations.Migration):
    dependencies = [("profiles", "0001_initial")]

    operations = [migrations.RunPython(partition, make_whole)]
