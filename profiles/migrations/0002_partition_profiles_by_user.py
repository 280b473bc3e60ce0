"""PostgreSQL: profile versions (a projection of a person's facts, their words) hash-partitioned
by user, like facts' tables (facts/migrations/0010_partition_user_data_by_user.py). Not
profiles_contextlog: counts only, no user. On SQLite it does nothing.
"""

from django.db import migrations

from core.db import partitioned_tables
from core.db.only_on import OnlyOn

TABLES = ["profiles_profile"]


class Migration(migrations.Migration):
    dependencies = [("profiles", "0001_initial")]

    operations = [OnlyOn("postgresql", partitioned_tables.migration(TABLES))]
