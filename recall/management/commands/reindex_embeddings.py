"""manage.py reindex_embeddings: (re-)embed live facts, e.g. after the embedding model changed."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from facts.management.tenants import tenant_from_arg
from facts.models import Fact, Turn
from recall import episode_index, index, indexer
from recall.embeddings import EmbedderError


class Command(BaseCommand):
    help = (
        "Bring the recall index of every live fact (or one tenant's) up to date: FTS rows, and vectors "
        "from the configured embedder for facts with none, another model, or changed text. "
        "--all re-embeds every live fact."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tenant", help="tenant id; default: all tenants")
        parser.add_argument("--batch", type=int, default=256)
        parser.add_argument("--all", action="store_true", help="re-embed even facts whose vector is current")

    def handle(
        self, *args: Any, tenant: str | None = None, batch: int = 256, all: bool = False, **options: Any
    ) -> None:
        facts = Fact.objects.live()
        if tenant:
            facts = facts.filter(tenant=tenant_from_arg(tenant))
        ids = list(facts.order_by("pk").values_list("pk", flat=True))
        embedded = 0
        with tqdm(total=len(ids), desc="re-embedding", unit="fact", file=self.stderr) as bar:
            for start in range(0, len(ids), max(1, batch)):
                chunk = ids[start : start + batch]
                try:
                    # No transaction around the chunk: index_items embeds first and then writes in
                    # a short transaction of its own, so the write lock is never held while the
                    # model runs. A vector dropped by --all and not yet re-embedded is found
                    # again by the next run (it resumes).
                    if all:
                        index.forget_vectors(chunk)
                    embedded += _embedded(indexer.index_items(chunk, [], vectors="here"))
                except EmbedderError as exc:
                    raise CommandError(
                        f"The embedder failed after {embedded} facts: {exc}. Fix the provider settings "
                        "(MEMORY_EMBEDDER, MEMORY_EMBEDDING_*) and run this command again; it resumes."
                    ) from exc
                bar.update(len(chunk))
        turn_ids, embedded_episodes = self._episodes(tenant, batch, all)
        self.stdout.write(
            f"live facts={len(ids)} embedded={embedded} episodes={len(turn_ids)} embedded episodes={embedded_episodes}"
        )

    def _episodes(self, tenant: str | None, batch: int, all: bool) -> tuple[list[int], int]:
        """The same for the episode index (docs/design.md §10); no transaction around the embedding."""
        episodes = Turn.objects.episodes()
        if tenant:
            episodes = episodes.filter(tenant=tenant_from_arg(tenant))
        turn_ids = list(episodes.order_by("pk").values_list("pk", flat=True))
        embedded = 0
        for start in range(0, len(turn_ids), max(1, batch)):
            chunk = turn_ids[start : start + batch]
            try:
                if all:
                    episode_index.forget_vectors(chunk)
                embedded += _embedded(indexer.index_items([], chunk, vectors="here"))
            except EmbedderError as exc:
                raise CommandError(
                    f"The embedder failed on episodes: {exc}. Run this command again; it resumes."
                ) from exc
        return turn_ids, embedded


def _embedded(batch: indexer.Batch) -> int:
    """The vectors a batch wrote; a batch whose embedder failed is an error here (it resumes)."""
    if batch.embed_error:
        raise EmbedderError(batch.embed_error)
    return batch.embedded
