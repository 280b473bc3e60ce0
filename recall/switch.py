"""Changing the embedding model of a live store, without re-extraction and without a recall
outage (`manage.py embedder_switch`, docs/deployment.md "Changing the embedding model").

Each side of the index (facts, episodes) has two vector tables, slot "a" and slot "b"
(recall/tables.py). One row, `EmbedderSwitch`, says which slot recall reads and with which
model; no row means slot "a" with the model the settings name. Changing the model:

1. `start(model)` records the model to build in the other slot;
2. `build()` embeds every indexed document that has no current vector of that model there,
   a batch at a time, embedding outside any transaction and writing each batch in a short
   one (recall keeps reading the live slot; a stopped build resumes where it was, since what
   is missing is read from the tables);
3. `switch()` catches up, inside one write transaction that holds the switch row, what
   changed since, and updates the row: the next recall embeds its query with the new model
   and reads the other slot. A recall already running finishes on the old slot, whose
   vectors stay (`kept_model`) for the way back: `start(kept model)`, `build()` (only what
   changed since is embedded again) and `switch()`;
4. `drop()` deletes the kept vectors once the operator no longer wants the way back.

Forgetting and erasing delete a document's vectors from both slots (recall/vec.py).
"""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Callable

from django.db import connection, transaction
from django.utils import timezone

from recall import engines, episode_index, index
from recall.embeddings import Embedder, EmbedderError, embedder_for
from recall.models import EmbedderSwitch
from recall.reports import embedder_report_save
from recall.slots import State, configured_model, other, slot_tables, state
from recall.tables import EPISODES, FACTS, Tables
from recall.vec import to_blob

log = logging.getLogger(__name__)

SIDES = (FACTS, EPISODES)

# What recall serves now (State, state, slot_tables) is read in recall/slots.py, the ground
# of the index that recall.vec and recall.embeddings read too; this module changes it.


class SwitchError(RuntimeError):
    """The operator asked for a step the switch's state does not allow (the message says why)."""


def _locked() -> EmbedderSwitch:
    """The switch row, made if missing, held until the caller's transaction ends."""
    EmbedderSwitch.objects.get_or_create(pk=1, defaults={"live_slot": "a", "live_model": configured_model()})
    return EmbedderSwitch.objects.select_for_update().get(pk=1)


# --- the steps ----------------------------------------------------------------------------


def start(model: str) -> State:
    """Record `model` as the one to build in the other slot."""
    embedder_for(model)  # an unknown model is refused before anything is recorded
    with transaction.atomic():
        row = _locked()
        if model == row.live_model:
            raise SwitchError(f"Recall already serves {model}.")
        if row.building_model and row.building_model != model:
            raise SwitchError(
                f"A build of {row.building_model} is under way; `embedder_switch cancel` it first "
                "(its vectors are kept until dropped)."
            )
        if row.kept_model and row.kept_model != model:
            raise SwitchError(
                f"The other slot keeps the vectors of {row.kept_model} for the way back; "
                "`embedder_switch drop` them first."
            )
        row.building_model, row.kept_model = model, ""
        row.save(update_fields=["building_model", "kept_model"])
    return state()


def cancel() -> State:
    """Stop building: the vectors built so far stay in the other slot, as kept vectors."""
    with transaction.atomic():
        row = _locked()
        if not row.building_model:
            raise SwitchError("No build is under way.")
        row.kept_model, row.building_model = row.building_model, ""
        row.save(update_fields=["building_model", "kept_model"])
    return state()


def missing_count(now: State | None = None) -> int:
    now = now or state()
    if not now.building_model:
        return 0
    return sum(_missing_count(t, now.other_tables(t), now.building_model) for t in SIDES)


def build(*, batch: int = 256, progress: Callable[[int], None] | None = None) -> int:
    """Embed, into the other slot, every indexed document without a current vector of the
    model being built; return how many were written. Resumable: run it again after a stop."""
    now = state()
    if not now.building_model:
        raise SwitchError("No model is being built: `embedder_switch start MODEL` first.")
    embedder = embedder_for(now.building_model)
    written = 0
    for t in SIDES:
        target = now.other_tables(t)
        after = 0
        while ids := _missing_ids(t, target, now.building_model, after, batch):
            after = ids[-1]
            written += _fill(t, target, ids, embedder)
            if progress:
                progress(len(ids))
    return written


def switch(*, batch: int = 256) -> State:
    """Make the model being built the one recall serves, in one transaction (module docstring)."""
    now = state()
    if not now.building_model:
        raise SwitchError("No model is being built: `embedder_switch start MODEL` and `build` first.")
    build(batch=batch)  # what changed while the operator waited, outside the lock
    with transaction.atomic():
        row = _locked()
        if row.building_model != now.building_model or row.live_slot != now.live_slot:
            raise SwitchError("The switch changed meanwhile (another operator?); read `embedder_switch status`.")
        # Holding the row: what was indexed since is embedded here, so no document is left
        # without a vector of the new model when it goes live (on SQLite the write lock
        # orders every index write before or after this; on PostgreSQL the catch-up after
        # the commit below covers a write that raced it).
        embedder = embedder_for(row.building_model)
        for t in SIDES:
            target, after = now.other_tables(t), 0
            while ids := _missing_ids(t, target, row.building_model, after, batch):
                after = ids[-1]
                _fill(t, target, ids, embedder)
        row.kept_model, row.live_model = row.live_model, row.building_model
        row.live_slot, row.building_model, row.switched_at = other(row.live_slot), "", timezone.now()
        row.save()
        # The model health reports on is now this one, and it has just embedded the store: an
        # error the old model left in the workers' report is older than this success.
        embedder_report_save(error="", at=time.time(), worker=f"embedder_switch@{socket.gethostname()}")
    catch_up(batch=batch)
    return state()


def catch_up(*, batch: int = 256) -> int:
    """Embed into the live slot what has no current vector of the live model (after a switch,
    or when an operator checks: `embedder_switch status` counts them)."""
    now = state()
    embedder = embedder_for(now.live_model)
    written = 0
    for t in SIDES:
        target = now.live_tables(t)
        after = 0
        while ids := _missing_ids(t, target, now.live_model, after, batch):
            after = ids[-1]
            written += _fill(t, target, ids, embedder)
    return written


def drop() -> int:
    """Delete the kept vectors (the way back goes with them); return how many rows went."""
    with transaction.atomic():
        row = _locked()
        if row.building_model:
            raise SwitchError(f"A build of {row.building_model} is under way; `embedder_switch cancel` it first.")
        removed = 0
        with connection.cursor() as cursor:
            for t in SIDES:
                # Names from recall/tables.py only.
                cursor.execute(f"DELETE FROM {slot_tables(t, other(row.live_slot)).vector}")
                removed += max(cursor.rowcount, 0)
        row.kept_model = ""
        row.save(update_fields=["kept_model"])
    return removed


def counts() -> dict[str, int]:
    """Rows per slot and side, and how many documents lack a current live vector (status)."""
    now = state()
    out: dict[str, int] = {"missing_live": sum(_missing_count(t, now.live_tables(t), now.live_model) for t in SIDES)}
    for slot in ("a", "b"):
        for t in SIDES:
            with connection.cursor() as cursor:
                cursor.execute(f"SELECT count(*) FROM {slot_tables(t, slot).vector}")
                out[f"{slot}:{'facts' if t is FACTS else 'episodes'}"] = int(cursor.fetchone()[0])
    out["missing_building"] = missing_count(now)
    return out


# --- what is missing, and filling it ------------------------------------------------------

# The same statement on both engines: an indexed document (its bookkeeping row holds the hash
# of the text it was indexed from, the hash its vector is stored with) without a vector of
# `model` for that text in `target`. Table and column names are recall/tables.py constants.
_MISSING = (
    "SELECT d.{id} FROM {doc} d LEFT JOIN {vector} v ON v.{id} = d.{id} AND v.user_id = d.user_id "
    "AND v.model = %s AND v.text_hash = d.text_hash WHERE v.{id} IS NULL"
)


def _missing_ids(t: Tables, target: Tables, model: str, after: int, limit: int) -> list[int]:
    sql = _MISSING.format(id=t.id, doc=t.doc, vector=target.vector) + f" AND d.{t.id} > %s ORDER BY d.{t.id} LIMIT %s"
    with connection.cursor() as cursor:
        cursor.execute(sql, [model, after, max(1, limit)])
        return [int(r[0]) for r in cursor.fetchall()]


def _missing_count(t: Tables, target: Tables, model: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM ({_MISSING.format(id=t.id, doc=t.doc, vector=target.vector)}) m", [model])
        return int(cursor.fetchone()[0])


def _documents(t: Tables, ids: list[int], *, lock: bool = False) -> dict[int, index.Document]:
    if t.id == FACTS.id:
        return index.live_documents(ids, lock=lock)
    return episode_index.episode_documents(ids, lock=lock)


def _fill(t: Tables, target: Tables, ids: list[int], embedder: Embedder) -> int:
    """Embed these documents (outside a transaction unless the caller holds one), then write
    the vectors whose document still has the text they were computed from."""
    docs = _documents(t, ids)
    if not docs:
        return 0
    order = list(docs.values())
    try:
        matrix = embedder.embed([d.embed_text for d in order])
    except EmbedderError:
        log.exception("embedding %d documents for %s failed", len(order), embedder.model_name)
        raise
    computed = {d.fact_id: (d.digest, row) for d, row in zip(order, matrix, strict=True)}
    engine = engines.current().vec
    with transaction.atomic():
        current = _documents(t, list(computed), lock=True)
        rows = [
            (i, doc.user_id, embedder.model_name, digest, to_blob(vector))
            for i, (digest, vector) in computed.items()
            if (doc := current.get(i)) is not None and doc.digest == digest
        ]
        engine.upsert(rows, target)
    return len(rows)
