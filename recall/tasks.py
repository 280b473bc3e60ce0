"""The index's Celery tasks (docs/design.md §5 "Index sync", recall/indexer.py).

drain_index (queue db) works through the index outbox: a worker that embeds indexes what
a transaction marked right after commit without any message (recall.indexer), so this
task serves the writes of other processes (the web server's), the periodic safety net,
and a backlog. Where vectors are computed on other hosts, embed_facts (queue embed: no
database, any machine) computes them and store_vectors (queue db) writes them back
(recall.embed_queue). Failures retry with exponential backoff and are visible in
embedder_state() and the log.

The tasks the indexer itself sends are defined beside the code that sends them (drain_index
in recall.indexer, the embed queue's in recall.embed_queue) and named here, where Celery
discovers the app's tasks: this module stands on the indexer, never under it.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from recall import indexer
from recall.embed_queue import embed_facts, note_embedder, send_to_embed, store_vectors
from recall.indexer import drain_index, request_drain

__all__ = [
    "drain_index",
    "embed_facts",
    "note_embedder",
    "request_drain",
    "send_to_embed",
    "store_vectors",
    "sync_episodes",
    "sync_facts",
]


@shared_task(name="recall.sync_facts", ignore_result=True)
def sync_facts(fact_ids: list[int]) -> dict[str, Any]:
    """Messages queued by a release before the outbox (upgrades): index those facts now."""
    return vars(indexer.index_items(fact_ids, []))


@shared_task(name="recall.sync_episodes", ignore_result=True)
def sync_episodes(turn_ids: list[int]) -> dict[str, Any]:
    """Messages queued by a release before the outbox (upgrades): index those episodes now."""
    return vars(indexer.index_items([], turn_ids))
