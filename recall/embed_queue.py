"""The `embed` queue's round trip, where vectors are computed on other hosts (docs/design.md
§5 "Index sync", recall/indexer.py).

The indexer hands a batch's texts to `send_to_embed`; `embed_facts` (queue embed: no database,
any machine) computes their vectors and sends them to `store_vectors` (queue db), which writes
those whose document still has the text they were computed from and clears their outbox rows.
Failures retry with exponential backoff and are visible in embedder_state() and the log.

Below the indexer: it reads and writes the index through recall.index, recall.episode_index
and recall.vec, never through the indexer, so the indexer can send to it without a circle.
"""

from __future__ import annotations

import logging
import socket
import time

from celery import Task, shared_task
from django.conf import settings
from django.db import transaction

from core.queues import about_users
from facts import replicas
from facts.models import Fact
from recall import episode_index, index, vec
from recall.embeddings import EmbedderError
from recall.index import Document, EmbedItem, VectorItem
from recall.models import PendingIndex
from recall.reports import ReportPace, embedder_report_save
from recall.tables import EPISODES, FACTS

log = logging.getLogger(__name__)

Kind = PendingIndex.Kind
MAX_RETRIES = 6


def _backoff(retries: int) -> int:
    delay: int = 5 * 2**retries  # int ** int is Any to mypy (a negative power is a float)
    return min(600, delay)


def send_to_embed(items: list[EmbedItem]) -> None:
    """Hand texts to the `embed` queue, a batch per message, tagged with their users."""
    size = max(1, settings.MEMORY_EMBED_BATCH_SIZE)
    for start in range(0, len(items), size):
        chunk = items[start : start + size]
        embed_facts.apply_async(args=(chunk,), **about_users(*(item["user_id"] for item in chunk)))


@shared_task(bind=True, name="recall.embed_facts", max_retries=MAX_RETRIES)
def embed_facts(self: Task[..., int], items: list[EmbedItem]) -> int:
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


_pace = ReportPace()


def report_embedder(*, error: str) -> None:
    # The embedding process may have no database: its state travels to the db queue.
    # Bookkeeping only, so a broker that is down loses the report, never the embedding.
    # Paced as recall/indexer.py paces its own (recall.reports.ReportPace).
    now = time.time()
    if not _pace.due(error, now):
        return
    try:
        note_embedder.apply_async(args=(error, now, socket.gethostname()))
    except Exception:
        log.exception("could not send the embedder report")


@shared_task(name="recall.note_embedder", ignore_result=True)
def note_embedder(error: str, at: float, worker: str) -> None:
    """Record an embedding process's success or failure where every process reads it (health)."""
    embedder_report_save(error=error, at=at, worker=worker)


@shared_task(bind=True, name="recall.store_vectors", max_retries=MAX_RETRIES)
def store_vectors(self: Task[..., int], items: list[VectorItem]) -> int:
    try:
        return write_vectors(items)
    except Exception as exc:
        log.exception("storing %d vectors failed", len(items))
        if self.request.is_eager:
            raise
        raise self.retry(exc=exc, countdown=_backoff(self.request.retries)) from exc


def _documents(kind: str, ids: list[int], users: list[int]) -> dict[int, Document]:
    """The documents as they are now, their rows held until commit (recall/indexer.py `_documents`);
    read in their people's partitions (each item names its person)."""
    if kind == Kind.FACT:
        return index.live_documents(ids, lock=True, users=users)
    return episode_index.episode_documents(ids, lock=True, users=users)


def write_vectors(items: list[VectorItem]) -> int:
    """The embed queue's vectors: written where the document still has the text they were
    computed from (checked in the write transaction), and the outbox cleared for them."""
    if not items:
        return 0
    with transaction.atomic():
        written = 0
        for kind in (Kind.FACT, Kind.EPISODE):
            mine = [i for i in items if i.get("kind", Kind.FACT) == kind]
            if not mine:
                continue
            docs = _documents(kind, [i["fact_id"] for i in mine], [i["user_id"] for i in mine])
            rows = [
                (doc.fact_id, doc.user_id, i["model"], doc.digest, index.decode_vector(i["vector"]).tobytes())
                for i in mine
                if (doc := docs.get(i["fact_id"])) is not None and doc.digest == i["digest"]
            ]
            vec.upsert(rows, FACTS if kind == Kind.FACT else EPISODES)
            replicas.note_write({r[1] for r in rows})
            if kind == Kind.FACT:
                for model in {r[2] for r in rows}:
                    Fact.objects.filter(pk__in=[r[0] for r in rows if r[2] == model]).update(embedding_model=model)
            PendingIndex.objects.filter(kind=kind, item_id__in=[r[0] for r in rows]).delete()
            written += len(rows)
    return written
