# The compaction pass rewrites only the erased users' partitions (facts/compactor.py).

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("facts", "0007_memoryuser_written_lsn"),
    ]

    operations = [
        migrations.AddField(
            model_name="pendingcompaction",
            name="user_pk",
            field=models.BigIntegerField(blank=True, null=True),
        ),
    ]
