"""The index's Celery tasks (docs/design.md §5 "Index sync", recall/indexer.py).

drain_index (queue db) works through the index outbox: a worker that embeds indexes what
a transaction marked right after commit without any message (recall.indexer), so this
task serves the writes of other processes (the web server's), the periodic safety net,
and a backlog. Where vectors are computed on other hosts, embed_facts (queue embed: no
database, any machine) computes them and store_vectors (queue db) writes them back.
Failures retry with exponential backoff and are visible in embedder_state() and the log.
"""

from __future__ import annotations

import logging
import socket
import time

from celery import shared_task
from django.conf import settings

from memory_service.celery import about_users
from recall import index, indexer
from recall.embeddings import EmbedderError

log = logging.getLogger(__name__)

MAX_RETRIES = 6


def _backoff(retries: int) -> int:
    return min(600, 5 * 2**retries)


def request_drain() -> None:
    """Ask a worker to drain the outbox (after a commit in a process that does not embed)."""
    try:
        drain_index.apply_async()
    except Exception:
        # The outbox keeps the items; the periodic drain (CELERY_BEAT_SCHEDULE) catches up.
        log.exception("could not queue an index drain; the periodic drain will index the items")


@shared_task(name="recall.drain_index", ignore_result=True)
def drain_index() -> dict:
    return indexer.drain()


@shared_task(name="recall.sync_facts", ignore_result=True)
def sync_facts(fact_ids: list[int]) -> dict:
    """Messages queued by a release before the outbox (upgrades): index those facts now."""
    return vars(indexer.index_items(fact_ids, []))


@shared_task(name="recall.sync_episodes", ignore_result=True)
def sync_episodes(turn_ids: list[int]) -> dict:
    """Messages queued by a release before the outbox (upgrades): index those episodes now."""
    return vars(indexer.index_items([], turn_ids))


def send_to_embed(items: list[dict]) -> None:
    """Hand texts to the `embed` queue, a batch per message, tagged with their users."""
    size = max(1, settings.MEMORY_EMBED_BATCH_SIZE)
    for start in range(0, len(items), size):
        chunk = items[start : start + size]
        embed_facts.apply_async(args=(chunk,), **about_users(*(item["user_id"] for item in chunk)))


@shared_task(bind=True, name="recall.embed_facts", max_retries=MAX_RETRIES)
def embed_facts(self, items: list[dict]) -> int:
    """Vectors for facts' and episodes' texts; runs on any host, without the database."""
    try:
        computed = index.compute_vectors(items)
    except EmbedderError as exc:
        log.warning("embedding %d items failed (try %d): %s", len(items), self.request.retries + 1, exc)
        report_embedder(error=f"{type(exc).__name__}: {exc}")
        if self.request.is_eager:
            return 0  # inline, a failing embedder must not fail the caller; the outbox keeps the items
        raise self.retry(exc=exc, countdown=_backoff(self.request.retries)) from exc
    store_vectors.apply_async(args=(computed,), **about_users(*(item["user_id"] for item in computed)))
    report_embedder(error="")
    return len(computed)


def report_embedder(*, error: str) -> None:
    # The embedding process may have no database: its state travels to the db queue.
    # Bookkeeping only, so a broker that is down loses the report, never the embedding.
    try:
        note_embedder.apply_async(args=(error, time.time(), socket.gethostname()))
    except Exception:
        log.exception("could not send the embedder report")


@shared_task(name="recall.note_embedder", ignore_result=True)
def note_embedder(error: str, at: float, worker: str) -> None:
    """Record an embedding process's success or failure where every process reads it (health)."""
    from recall.reports import embedder_report_save

    embedder_report_save(error=error, at=at, worker=worker)


@shared_task(bind=True, name="recall.store_vectors", max_retries=MAX_RETRIES)
def store_vectors(self, items: list[dict]) -> int:
    try:
        return indexer.store_vectors(items)
    except Exception as exc:
        log.exception("storing %d vectors failed", len(items))
        if self.request.is_eager:
            raise
        raise self.retry(exc=exc, countdown=_backoff(self.request.retries)) from exc
