"""PostgreSQL: the facts tables that hold a person's words hash-partitioned by user, so that the
compaction pass rewrites only an erased user's slice of each (core/db/partitioned_tables.py,
docs/deployment.md "What erased means on PostgreSQL"). Only the database changes: Django's
state is the same. On SQLite it does nothing. The reverse makes the tables whole again.
"""

from django.db import migrations

from core.db import partitioned_tables
from core.db.only_on import OnlyOn

# Turns (what was said), facts, their history, entities (names) and edges (relations). Not:
# facts_factentity (two ids, no user_id), the bookkeeping tables (docs/deployment.md).
TABLES = ["facts_turn", "facts_fact", "facts_facthistory", "facts_entity", "facts_edge"]


class Migration(migrations.Migration):
    dependencies = [("facts", "0009_memory_mode_and_withheld_turns")]

    operations = [OnlyOn("postgresql", partitioned_tables.migration(TABLES))]
