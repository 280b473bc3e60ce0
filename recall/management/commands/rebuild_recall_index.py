"""manage.py rebuild_recall_index: rebuild the FTS rows of every live fact and drop stale rows."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from tqdm import tqdm

from facts.models import Fact, Turn
from recall import fts, index, indexer, vec
from recall.tables import EPISODES


class Command(BaseCommand):
    help = (
        "Re-write the FTS5 rows of all live facts and remove index rows (FTS and vectors) of facts that "
        "are no longer live; the same for episodes (turns processed done). Vectors are kept when current; "
        "run reindex_embeddings for the others."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch", type=int, default=1000)

    def handle(self, *args: Any, batch: int = 1000, **options: Any) -> None:
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
                    indexer.index_items(chunk, [], vectors="skip")
                bar.update(len(chunk))
        episodes, gone = self._rebuild_episodes(batch)
        self.stdout.write(
            f"live facts={len(ordered)} stale rows removed={len(stale)} episodes={episodes} stale episode rows={gone}"
        )

    def _rebuild_episodes(self, batch: int) -> tuple[int, int]:
        """Episode rows re-written from Turn; rows of turns that are no episode any more removed."""
        current = set(Turn.objects.episodes().values_list("pk", flat=True))
        stale = sorted({pk for pk in (*fts.all_ids(EPISODES), *vec.all_ids(EPISODES)) if pk not in current})
        ordered = sorted(current)
        for start in range(0, len(stale) + len(ordered), max(1, batch)):
            chunk = (stale + ordered)[start : start + batch]
            with transaction.atomic():
                fts.delete(chunk, EPISODES)
            # Episodes get their vectors here too; the write lock is not held while embedding.
            indexer.index_items([], chunk, vectors="here")
        return len(ordered), len(stale)
