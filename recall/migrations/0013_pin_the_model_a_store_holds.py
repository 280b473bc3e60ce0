"""A store that holds vectors and never switched models now records the model they are of.

Why: without the switch's row a store serves the model the settings name, and the default changed
from all-MiniLM-L6-v2 to its int8 copy (docs/measurements.md §28). A store filled under the old
default would pair int8 queries with float vectors of another model name: recall's vector side
reads only the served model's rows and would find nothing. Recording the model its live slot
holds keeps such a store serving what it has; `manage.py embedder_switch start
all-MiniLM-L6-v2-int8` moves it to the faster model without an outage (docs/deployment.md).
A store with no vectors yet is left alone and serves the settings' model.
"""

from django.db import migrations


def pin_the_held_model(apps, schema_editor):
    EmbedderSwitch = apps.get_model("recall", "EmbedderSwitch")
    if EmbedderSwitch.objects.filter(pk=1).exists():
        return
    with schema_editor.connection.cursor() as cursor:
        for table in ("recall_vector", "recall_episode_vector"):
            # Slot "a", the one served without a row; the model most of it is of (a store whose
            # settings named another model without a switch holds some of each).
            cursor.execute(f"SELECT model FROM {table} GROUP BY model ORDER BY COUNT(*) DESC, model LIMIT 1")
            row = cursor.fetchone()
            if row is not None:
                EmbedderSwitch.objects.create(pk=1, live_slot="a", live_model=row[0])
                return


class Migration(migrations.Migration):
    dependencies = [("recall", "0012_turn_keys_with_facts")]

    operations = [migrations.RunPython(pin_the_held_model, migrations.RunPython.noop)]
