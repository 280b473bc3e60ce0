"""PostgreSQL: no column statistics for the columns that hold a person's words.

ANALYZE keeps sample values of each column (most common values, histogram bounds) in
pg_statistic. When an erasure empties a user's partition (the user was alone in that slice),
the compaction pass's ANALYZE of the empty partition changes nothing, so those sampled
words would stay in a live catalog row (docs/deployment.md "What erased means on
PostgreSQL"). No query filters or sorts on these columns (lookups go by ids, user, state and
time), so the planner loses nothing when ANALYZE does not sample them: statistics target 0,
set on each partitioned table (and so each partition) before any ANALYZE of the new tables
of migration 0010 could have run. On SQLite it does nothing.
"""

from django.db import migrations

# table -> the columns that hold words or values a person said (names, text, JSON of them).
WORD_COLUMNS = {
    "facts_turn": ["user_input", "assistant_response", "last_error", "outcome"],
    "facts_fact": ["text", "value_json", "source_excerpt"],
    "facts_facthistory": ["before", "after", "reason"],
    "facts_entity": ["name", "display_name", "aliases"],
    "facts_edge": ["relation"],
    "profiles_profile": ["data"],
}


def _set_target(schema_editor, target: int) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        for table, columns in WORD_COLUMNS.items():
            for column in columns:
                # Names from this module only; a target of -1 is the server's default again.
                cursor.execute(f'ALTER TABLE {table} ALTER COLUMN "{column}" SET STATISTICS {int(target)}')


def no_statistics(apps, schema_editor):
    _set_target(schema_editor, 0)


def default_statistics(apps, schema_editor):
    _set_target(schema_editor, -1)


class Migration(migrations.Migration):
    dependencies = [("facts", "0010_partition_user_data_by_user"), ("profiles", "0002_partition_profiles_by_user")]

    operations = [migrations.RunPython(no_statistics, default_statistics)]
