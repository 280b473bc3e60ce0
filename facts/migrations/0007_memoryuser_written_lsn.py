# Reads from replicas (facts/replicas.py): where a user's last write ends in the WAL.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("facts", "0006_deletionreceipt_bytes_gone_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="memoryuser",
            name="written_lsn",
            field=models.BigIntegerField(blank=True, null=True),
        ),
    ]
