"""manage.py rebuild_recall_index: rebuild the FTS rows of every live fact and drop stale rows."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db import transaction
from tqdm import tqdm

from facts.models import Fact
from recall import fts, index, vec


class Command(BaseCommand):
    help = (
        "Re-write the FTS5 rows of all live facts and remove index rows (FTS and vectors) of facts that "
        "are no longer live. Vectors are kept when current; run reindex_embeddings for those."
    )

    def add_arguments(self, parser):
        parser.add_argument("--batch", type=int, default=1000)

    def handle(self, *args, batch=1000, **options):
        live = set(Fact.objects.live().values_list("pk", flat=True))
        # A vector can outlive its FTS row (a sync interrupted between the two), so both are read.
        stale = sorted({fid for fid in (*fts.all_ids(), *vec.all_ids()) if fid not in live})
        with transaction.atomic():
            index.forget(stale)
        ordered = sorted(live)
        with tqdm(total=len(ordered), desc="rebuilding", unit="fact", file=self.stderr) as bar:
            for start in range(0, len(ordered), max(1, batch)):
                chunk = ordered[start : start + batch]
                with transaction.atomic():
                    fts.delete(chunk)
                    index.sync_lexical(chunk)
                bar.update(len(chunk))
        self.stdout.write(f"live facts={len(ordered)} stale rows removed={len(stale)}")
