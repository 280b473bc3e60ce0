"""Bringing the index in line with what changed: the outbox, and indexing a batch at once
(docs/design.md §5 "Index sync", docs/recall.md).

A change marks its facts and episodes in the outbox (`PendingIndex`) inside its own
transaction (`mark`). After commit, the ones this transaction marked are indexed in the same
process when it computes embeddings here (a Celery worker that consumes the `embed` queue,
as `make run`'s does, or eager mode) or is a `db` worker (its vectors then go to the `embed`
queue), else (the web server) one `recall.drain_index` message asks a worker to. A process
that leaves them to a worker (a web host: a fact stored, changed or forgotten through the API)
writes their term (FTS) rows in the change's own transaction first (`_terms_now`), so the very
next recall on any host finds the change by its words whatever the workers' backlog; only the
vectors wait in the outbox (docs/design.md §5, "Index sync").
`index_items` indexes a batch in two steps:

1. read the documents and embed those whose vector is missing or stale, outside any write
   transaction (embedding takes milliseconds per text; the write lock is shared with the API);
2. one write transaction: read the documents again (a forget committed meanwhile is never
   written back), write FTS rows and the vectors computed for the same text, delete the rows
   of items no longer indexable, and clear their outbox rows.

An item whose text changed between the two steps stays in the outbox for the next batch.
Where embeddings are computed on other hosts (`embed` workers without the database), step 2
writes the FTS rows and the items' texts go to the `embed` queue (recall.embed_queue), whose
`store_vectors` writes the vectors back and clears the outbox (`sent_at` marks them in flight
meanwhile).
`drain` works through the whole outbox, oldest first, a batch per transaction: the
periodic safety net and what a backlog is drained by.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from core.queues import consumes
from facts import replicas
from facts.models import Fact
from recall import episode_index, fts, index, slots, turn_keys, vec
from recall.embed_queue import send_to_embed
from recall.embeddings import Embedder, EmbedderError, get_embedder
from recall.index import Document, EmbedItem
from recall.models import PendingIndex
from recall.reports import report_embedder_here
from recall.tables import EPISODES, FACTS, Tables

log = logging.getLogger(__name__)

Kind = PendingIndex.Kind
SENT_STALE = timedelta(minutes=10)  # a batch handed to the embed queue this long ago is sent again


@dataclass
class Batch:
    """What one `index_items` call did."""

    indexed: int = 0  # FTS rows written
    embedded: int = 0  # vectors written
    removed: int = 0  # items no longer indexable, their rows dropped
    left: int = 0  # items left in the outbox (text changed meanwhile, embedder failed, sent away)
    embed_error: str = ""  # why vectors were not computed here
    to_embed: list[EmbedItem] = field(default_factory=list)  # for the embed queue, when not embedded here


# --- marking, inside the change's transaction -----------------------------------------------

_marked = threading.local()
_USERS = "users"  # beside the kinds in a thread's marks: whose items they are


def mark(*, user_id: int, fact_ids: Iterable[int] = (), turn_ids: Iterable[int] = ()) -> None:
    """Record these items in the outbox (in the caller's transaction) and index them after commit.
    With MEMORY_RECALL_TURN_KEYS=words+facts a fact's source turn is marked with it: the turn's
    entry holds the fact's words (recall.turn_keys)."""
    fact_ids = sorted({int(i) for i in fact_ids})
    turn_ids = sorted({*(int(i) for i in turn_ids), *turn_keys.turns_of(fact_ids, [user_id])})
    # Sorted: an upsert locks its rows in the order given, and two marks of overlapping items
    # in different orders could each hold a row the other waits for.
    rows = [PendingIndex(kind=Kind.FACT, item_id=i, user_id=user_id) for i in fact_ids]
    rows += [PendingIndex(kind=Kind.EPISODE, item_id=i, user_id=user_id) for i in turn_ids]
    if not rows:
        return
    now = timezone.now()
    for row in rows:
        row.queued_at = now
    PendingIndex.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["kind", "item_id"], update_fields=["queued_at", "sent_at"]
    )
    if not indexes_after_commit():
        _terms_now(fact_ids, turn_ids, [user_id])
    pending = getattr(_marked, "items", None)
    if pending is None:
        pending = _marked.items = {Kind.FACT: set(), Kind.EPISODE: set(), _USERS: set()}
    pending[Kind.FACT].update(fact_ids)
    pending[Kind.EPISODE].update(turn_ids)
    pending[_USERS].add(user_id)
    replicas.note_write([user_id])  # with replicas: read your own writes (facts/replicas.py)
    # One callback per mark; the first to run after commit takes everything this thread marked.
    transaction.on_commit(_after_commit)


def _terms_now(fact_ids: list[int], turn_ids: list[int], users: list[int]) -> None:
    """Inside the change's transaction, in a process that leaves indexing to a worker: the items'
    term rows as the worker would write them (the same documents, digests and tokenizer), so
    recall finds the change by its words from its commit on, on the primary and on a replica
    alike (one commit record). Their vectors stay in the outbox; a worker's batch finds the term
    rows current and writes only those. The documents are read in this transaction: a fact
    forgotten or changed in it is written as it will commit."""
    for kind, by_id in _documents(fact_ids, turn_ids, users=users).items():
        asked = fact_ids if kind == Kind.FACT else turn_ids
        if asked:
            _write_terms(by_id, asked, _TABLES[kind], users)


def _after_commit() -> None:
    pending = getattr(_marked, "items", None)
    _marked.items = None
    if not pending or not (pending[Kind.FACT] or pending[Kind.EPISODE]):
        return
    if indexes_after_commit():
        # A `db` worker writes the FTS rows itself, in the task that committed (and hands the texts
        # to the `embed` queue when it does not embed): a drain message to its own queue cost a
        # second task per applied turn, behind the whole backlog (docs/measurements.md §20).
        try:
            index_items(sorted(pending[Kind.FACT]), sorted(pending[Kind.EPISODE]), users=sorted(pending[_USERS]))
        except Exception:
            # The change has committed and the outbox holds its items: a drain catches up.
            log.exception("indexing after commit failed; the outbox keeps the items")
            request_drain()
    else:
        request_drain()


# A web host asked for a drain after every write it committed: in a burst, a drain per write,
# each reading the outbox again behind the `db` worker's backlog (the many-hosts drill's recovery
# from replica lag was slower for them, docs/measurements.md §20). Now a process has at most one
# drain waiting: it is sent DRAIN_DELAY_SECONDS ahead, and a write committed before then needs
# none of its own, since that drain starts after its commit and finds its outbox rows.
DRAIN_DELAY_SECONDS = 1.0
_drain_lock = threading.Lock()
_drain_due = 0.0  # time.monotonic() at which the drain this process sent last may start


def request_drain() -> None:
    """Ask a worker to drain the outbox (after a commit in a process that does not index), unless
    a drain this process sent has not started yet (see DRAIN_DELAY_SECONDS)."""
    global _drain_due
    with _drain_lock:
        now = time.monotonic()
        if now < _drain_due:
            return
        _drain_due = now + DRAIN_DELAY_SECONDS
    try:
        drain_index.apply_async(countdown=DRAIN_DELAY_SECONDS)
    except Exception:
        # The outbox keeps the items; the periodic drain (CELERY_BEAT_SCHEDULE) catches up, and
        # the next write asks again.
        with _drain_lock:
            _drain_due = 0.0
        log.exception("could not queue an index drain; the periodic drain will index the items")


def indexes_here() -> bool:
    """This process computes embeddings itself: eager mode, or a worker on the `embed` queue."""
    return consumes(settings.MEMORY_QUEUE_EMBED)


def indexes_after_commit() -> bool:
    """This process indexes what it marked right after the commit (it embeds, or is a `db`
    worker); else (a web host, a command) a worker does, behind its queue."""
    return indexes_here() or consumes(settings.MEMORY_QUEUE_DB)


# --- indexing a batch ----------------------------------------------------------------------


def _documents(
    fact_ids: list[int], turn_ids: list[int], *, lock: bool = False, users: list[int] | None = None
) -> dict[str, dict[int, Document]]:
    """The documents as they are now; `lock` (inside the write transaction) holds their rows until
    commit, so a forget waits for this write or this write sees the forget (on PostgreSQL; SQLite's
    one writer already orders them). No statement for a kind with no ids. `users`: the items'
    people, when the caller knows them (the outbox rows name them): read in their partitions."""
    return {
        Kind.FACT: index.live_documents(fact_ids, lock=lock, users=users) if fact_ids else {},
        Kind.EPISODE: episode_index.episode_documents(turn_ids, lock=lock, users=users) if turn_ids else {},
    }


def _write_terms(
    by_id: dict[int, Document], asked: list[int], tables: Tables, users: list[int] | None
) -> tuple[list[int], int, int]:
    """The term rows of the `asked` items in line with `by_id` (read in this transaction): the
    rows (and vectors) of items no longer indexable deleted, changed ones rewritten, new ones
    inserted. Returns the ids gone, the rows removed and the documents written. `users`: every
    asked item's people, when known (a gone item's are not in `by_id`)."""
    gone = [i for i in asked if i not in by_id]
    removed = fts.delete(gone, tables, users=users)
    vec.delete(gone, tables, users=users)
    current = fts.indexed_hashes(by_id, tables, users=_people(by_id))
    changed = [d for d in by_id.values() if d.fact_id in current and current[d.fact_id] != d.digest]
    new = [d for d in by_id.values() if d.fact_id not in current]
    fts.upsert(((d.fact_id, d.user_id, d.digest, d.body, d.context) for d in changed), tables)
    if new:  # a new document has no rows to replace: inserted without upsert's deletes
        fts.insert_new([(d.fact_id, d.user_id, d.digest, d.body, d.context) for d in new], tables)
    return gone, removed, len(changed) + len(new)


_TABLES: dict[str, Tables] = {Kind.FACT: FACTS, Kind.EPISODE: EPISODES}


def _people(by_id: dict[int, Document]) -> set[int]:
    """Whose documents these are: their index rows are read in those people's partitions."""
    return {d.user_id for d in by_id.values()}


def _needing_vectors(docs: dict[str, dict[int, Document]], model: str) -> list[tuple[str, Document]]:
    need = []
    for kind, by_id in docs.items():
        have = vec.indexed(by_id, _TABLES[kind], users=_people(by_id))
        need += [(kind, d) for d in by_id.values() if have.get(d.fact_id) != (model, d.digest)]
    return need


def _embed(need: list[tuple[str, Document]], embedder: Embedder) -> dict[tuple[str, int], tuple[str, bytes]]:
    """(kind, id) -> (digest, float32 blob) for each document, computed here in batches."""
    out: dict[tuple[str, int], tuple[str, bytes]] = {}
    size = max(1, settings.MEMORY_EMBED_BATCH_SIZE)
    for start in range(0, len(need), size):
        chunk = need[start : start + size]
        matrix = embedder.embed([d.embed_text for _, d in chunk])
        for (kind, doc), row in zip(chunk, matrix, strict=True):
            out[(kind, doc.fact_id)] = (doc.digest, vec.to_blob(row))
    return out


def index_items(
    fact_ids: Iterable[int],
    turn_ids: Iterable[int],
    *,
    vectors: str = "auto",
    embedder: Embedder | None = None,
    users: Iterable[int] | None = None,
) -> Batch:
    """Index these facts and episodes now (module docstring: read and embed, then one write).

    vectors: "here" computes missing vectors in this process, "queue" sends them to the
    `embed` queue, "skip" writes FTS rows only (rebuild_recall_index), "auto" picks "here"
    where this process embeds (indexes_here) and "queue" elsewhere. `users`: every item's
    person, when the caller knows them (None: read by id alone)."""
    fact_ids, turn_ids = sorted({int(i) for i in fact_ids}), sorted({int(i) for i in turn_ids})
    people = None if users is None else sorted({int(u) for u in users})
    if vectors == "auto":
        vectors = "here" if indexes_here() else "queue"
    computed: dict[tuple[str, int], tuple[str, bytes]] = {}
    error, model = "", ""
    try:
        if vectors == "here":
            embedder = embedder or get_embedder()
            model = embedder.model_name  # which vectors are current: the ones computed here
            with slots.pinned():
                need = _needing_vectors(_documents(fact_ids, turn_ids, users=people), model)
            computed = _embed(need, embedder) if need else {}
            if need:
                report_embedder_here("")
        elif embedder is not None:
            model = embedder.model_name
        # Else (a `db` worker sending the texts to the `embed` queue) no embedder is needed here:
        # the current vectors are the live model's, read in the write transaction (`_write`). Its
        # lookup read the switch's row a second time per applied turn (docs/measurements.md §20).
    except EmbedderError as exc:
        # The FTS rows are still written: lexical recall finds the items meanwhile.
        vectors, error = "skip", f"{type(exc).__name__}: {exc}"
        log.warning("embedding for %d facts and %d episodes failed: %s", len(fact_ids), len(turn_ids), exc)
        report_embedder_here(error)
    with transaction.atomic(), slots.pinned():
        docs = _documents(fact_ids, turn_ids, lock=True, users=people)
        batch = _write(docs, fact_ids, turn_ids, computed, model, vectors, people)
    batch.embed_error = error
    if batch.to_embed:
        transaction.on_commit(lambda: send_to_embed(batch.to_embed))
    return batch


def _write(
    docs: dict[str, dict[int, Document]],
    fact_ids: list[int],
    turn_ids: list[int],
    vectors: dict[tuple[str, int], tuple[str, bytes]],
    model: str,
    mode: str,
    users: list[int] | None = None,
) -> Batch:
    """Inside the write transaction: rows in line with `docs`, read in this transaction."""
    batch = Batch()
    if model != slots.state().live_model:
        # The model was switched since these vectors were computed (recall/switch.py): they
        # are not written, and their items stay in the outbox for the model recall serves now.
        # (No model given: nothing was computed, and the live model's vectors are the current ones.)
        vectors, model = {}, slots.state().live_model
    done: dict[str, list[int]] = {Kind.FACT: [], Kind.EPISODE: []}
    sent: dict[str, list[int]] = {Kind.FACT: [], Kind.EPISODE: []}
    asked: dict[str, list[int]] = {Kind.FACT: fact_ids, Kind.EPISODE: turn_ids}
    for kind, by_id in docs.items():
        tables = _TABLES[kind]
        replicas.note_write({d.user_id for d in by_id.values()})
        gone, removed, written = _write_terms(by_id, asked[kind], tables, users)
        batch.removed += removed
        batch.indexed += written
        done[kind] += gone
        have = vec.indexed(by_id, tables, users=_people(by_id))
        rows = []
        for doc in by_id.values():
            if have.get(doc.fact_id) == (model, doc.digest):
                done[kind].append(doc.fact_id)
            elif (computed := vectors.get((kind, doc.fact_id))) and computed[0] == doc.digest:
                rows.append((doc.fact_id, doc.user_id, model, doc.digest, computed[1]))
                done[kind].append(doc.fact_id)
            elif mode == "queue":
                batch.to_embed.append(_embed_item(kind, doc))
                sent[kind].append(doc.fact_id)
        vec.upsert(rows, tables)
        batch.embedded += len(rows)
        if kind == Kind.FACT and rows:
            # Index metadata, not a change of the fact: no history, no facts_version bump.
            embedded = Fact.objects.filter(pk__in=[r[0] for r in rows], user_id__in={r[1] for r in rows})
            embedded.update(embedding_model=model)
    for kind in done:
        PendingIndex.objects.filter(kind=kind, item_id__in=done[kind]).delete()
        PendingIndex.objects.filter(kind=kind, item_id__in=sent[kind]).update(sent_at=timezone.now())
    batch.left = len(fact_ids) + len(turn_ids) - len(done[Kind.FACT]) - len(done[Kind.EPISODE])
    return batch


def _embed_item(kind: str, doc: Document) -> EmbedItem:
    return {"kind": kind, "fact_id": doc.fact_id, "user_id": doc.user_id, "digest": doc.digest, "text": doc.embed_text}


# --- draining the outbox -------------------------------------------------------------------


# The outbox's own message, defined here (recall.tasks names it for Celery's discovery) so that
# the indexer asks for a drain without importing the module of tasks that run it.
@shared_task(name="recall.drain_index", ignore_result=True)
def drain_index() -> dict[str, int]:
    return drain()


def drain(*, batch_size: int | None = None, budget_seconds: float = 30.0) -> dict[str, int]:
    """Index what the outbox holds, oldest first, a batch per write transaction, until it is
    empty (or holds only items sent to the embed queue) or `budget_seconds` have passed."""
    size = batch_size or settings.MEMORY_INDEX_BATCH
    started, totals, batches = time.monotonic(), Batch(), 0
    stale = timezone.now() - SENT_STALE
    while time.monotonic() - started < budget_seconds:
        rows = list(
            PendingIndex.objects.filter(Q(sent_at__isnull=True) | Q(sent_at__lt=stale))
            .order_by("queued_at", "pk")
            .values_list("kind", "item_id", "user_id")[:size]
        )
        if not rows:
            break
        facts, turns = [i for k, i, _ in rows if k == Kind.FACT], [i for k, i, _ in rows if k == Kind.EPISODE]
        batch = index_items(facts, turns, users={u for _, _, u in rows})
        batches += 1
        totals.indexed += batch.indexed
        totals.embedded += batch.embedded
        totals.removed += batch.removed
        if batch.left >= len(rows):
            break  # nothing moved (the embedder is down): the next drain tries again
    return {
        "batches": batches,
        "indexed": totals.indexed,
        "embedded": totals.embedded,
        "removed": totals.removed,
        "pending": backlog(),
    }


def backlog() -> int:
    return PendingIndex.objects.count()
