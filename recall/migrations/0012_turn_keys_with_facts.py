"""Turn keys now hold the facts extracted from each turn by default (MEMORY_RECALL_TURN_KEYS=words+facts,
docs/recall.md "Turn keys"): every episode that produced a live fact is put in the index outbox, so
the periodic drain re-indexes it with its facts' words in the background. Until it has, such a
turn is found by its own words, from which its facts were taken. A store that keeps `words` keys
re-indexes those turns to the same text and vector (the indexer compares text hashes)."""

from django.db import migrations
from django.utils import timezone

BATCH = 1000


def mark_turns_with_facts(apps, schema_editor):
    Fact = apps.get_model("facts", "Fact")
    Turn = apps.get_model("facts", "Turn")
    PendingIndex = apps.get_model("recall", "PendingIndex")
    with_facts = Fact.objects.filter(status="active", valid_to__isnull=True, source_turn__isnull=False)
    turns = Turn.objects.filter(state="done", episode_withdrawn=False, pk__in=with_facts.values("source_turn_id"))
    now = timezone.now()
    batch = []
    for pk, user_id in turns.values_list("pk", "user_id").iterator(chunk_size=BATCH):
        batch.append(PendingIndex(kind="episode", item_id=pk, user_id=user_id, queued_at=now))
        if len(batch) >= BATCH:
            PendingIndex.objects.bulk_create(batch, ignore_conflicts=True)  # already marked: kept as is
            batch = []
    PendingIndex.objects.bulk_create(batch, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [("recall", "0011_no_samples_of_index_words"), ("facts", "0011_no_column_statistics_of_words")]

    operations = [migrations.RunPython(mark_turns_with_facts, migrations.RunPython.noop)]
