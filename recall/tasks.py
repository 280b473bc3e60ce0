"""Index sync after commit (docs/design.md §4 "Embedding sync").

sync_facts (queue db) updates the FTS rows and removes rows of facts that
stopped being live, then hands the texts needing a vector to embed_facts
(queue embed: no database, any machine), which passes the vectors to
store_vectors (queue db). Failures retry with exponential backoff and are
visible in embedder_state() and the log; facts without a vector keep an empty
embedding_model until `reindex_embeddings` or a retry catches up.
"""

from __future__ import annotations

import logging
import time

from celery import shared_task
from django.conf import settings

from memory_service.celery import about_users
from recall import episode_index, index
from recall.embeddings import EmbedderError

log = logging.getLogger(__name__)

RETRY = {"max_retries": 6}


def _backoff(retries: int) -> int:
    return min(600, 5 * 2**retries)


@shared_task(bind=True, name="recall.sync_facts", **RETRY)
def sync_facts(self, fact_ids: list[int]) -> dict:
    try:
        result = index.sync_lexical(fact_ids)
    except Exception as exc:
        log.exception("recall index sync failed for %d facts", len(fact_ids))
        if self.request.is_eager:
            raise
        raise self.retry(exc=exc, countdown=_backoff(self.request.retries)) from exc
    items = [
        {"fact_id": d.fact_id, "user_id": d.user_id, "digest": d.digest, "text": d.embed_text}
        for d in result.to_embed or []
    ]
    batch = max(1, settings.MEMORY_EMBED_BATCH_SIZE)
    for start in range(0, len(items), batch):
        chunk = items[start : start + batch]
        embed_facts.apply_async(args=[chunk], **about_users(*(item["user_id"] for item in chunk)))
    return {"indexed": result.indexed, "removed": result.removed, "to_embed": len(items)}


@shared_task(bind=True, name="recall.embed_facts", **RETRY)
def embed_facts(self, items: list[dict]) -> int:
    try:
        computed = index.compute_vectors(items)
    except EmbedderError as exc:
        log.warning("embedding %d facts failed (try %d): %s", len(items), self.request.retries + 1, exc)
        _report(error=f"{type(exc).__name__}: {exc}", worker=self.request.hostname or "")
        if self.request.is_eager:
            # Inline (tests, eager mode) a failing embedder must not break the
            # write that triggered it: the facts stay lexical-only and visible
            # as unembedded until a retry or `reindex_embeddings`.
            return 0
        raise self.retry(exc=exc, countdown=_backoff(self.request.retries)) from exc
    store_vectors.apply_async(args=[computed], **about_users(*(item["user_id"] for item in computed)))
    _report(error="", worker=self.request.hostname or "")
    return len(computed)


def _report(*, error: str, worker: str) -> None:
    # This worker may have no database: its state travels to the db queue. Bookkeeping
    # only, so a broker that is down loses the report, never the embedding.
    try:
        note_embedder.apply_async(args=(error, time.time(), worker))
    except Exception:
        log.exception("could not send the embedder report")


@shared_task(name="recall.note_embedder", ignore_result=True)
def note_embedder(error: str, at: float, worker: str) -> None:
    """Record an embed worker's success or failure where every process reads it (health)."""
    from recall.reports import embedder_report_save

    embedder_report_save(error=error, at=at, worker=worker)


@shared_task(bind=True, name="recall.store_vectors", **RETRY)
def store_vectors(self, items: list[dict]) -> int:
    try:
        return index.store_vectors(items)
    except Exception as exc:
        log.exception("storing %d vectors failed", len(items))
        if self.request.is_eager:
            raise
        raise self.retry(exc=exc, countdown=_backoff(self.request.retries)) from exc


@shared_task(bind=True, name="recall.sync_episodes", **RETRY)
def sync_episodes(self, turn_ids: list[int]) -> dict:
    """Index (or remove) the episodes of these turns, vectors included (docs/design.md §10)."""
    try:
        return episode_index.sync_episodes(turn_ids)
    except EmbedderError as exc:
        log.warning("embedding %d episodes failed (try %d): %s", len(turn_ids), self.request.retries + 1, exc)
        if self.request.is_eager:
            return {}  # as embed_facts: the turn's write is not failed by the embedder
        raise self.retry(exc=exc, countdown=_backoff(self.request.retries)) from exc
    except Exception as exc:
        log.exception("episode index sync failed for %d turns", len(turn_ids))
        if self.request.is_eager:
            raise
        raise self.retry(exc=exc, countdown=_backoff(self.request.retries)) from exc
