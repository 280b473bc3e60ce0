"""Keeping the recall index in step with Fact: which text is indexed, sync, erase.

Only live facts are indexed. Each fact is indexed with its own words (text,
key, entity names) in the FTS5 `body` column and the words it was stated in
(its source excerpt, and the exchange around the turn it came from) in the
lower-weighted `context` column. The vector is computed from the fact's text
followed by that context (MEMORY_RECALL_EMBED_CONTEXT).
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass

import numpy as np
from django.conf import settings
from django.db import transaction
from django.db.models import OuterRef, Q, Subquery

from facts.models import Fact, Turn
from recall import fts, vec
from recall.embeddings import get_embedder


@dataclass(frozen=True)
class Document:
    fact_id: int
    user_id: int
    body: str
    context: str
    embed_text: str

    @property
    def digest(self) -> str:
        raw = "\x1f".join((self.body, self.context, self.embed_text))
        return hashlib.sha1(raw.encode()).hexdigest()


# A source message longer than this is not indexed whole: the excerpt stands for it.
STATED_IN_MAX_CHARS = 1000


@dataclass(frozen=True)
class SourceTurn:
    """What the indexed context of a fact takes from the turn it was stated in."""

    message: str  # the user's message ("" once its episode is withdrawn: a fact of it was forgotten)
    exchange: str  # the end of the assistant message it answered and the start of the reply


def stated_in(excerpt: str, message: str) -> str:
    """The words a fact was stated in. The write path keeps one sentence of the user's message
    as the excerpt (what a reviewer reads); the index takes the whole message when the excerpt
    is part of it, because the rest of the message often holds the words a question uses
    (docs/recall.md, "Index layout and why")."""
    if message and len(message) <= STATED_IN_MAX_CHARS and excerpt in message:
        return message
    return excerpt


def document(fact: Fact, entity_names: list[str] | None = None, source: SourceTurn | None = None) -> Document:
    key_words = fact.key.replace("_", " ").replace(".", " ").replace("-", " ") if fact.key else ""
    body = " ".join(part for part in (fact.text, key_words, " ".join(entity_names or [])) if part)
    excerpt = fact.source_excerpt or ""
    words = stated_in(excerpt, source.message) if source and excerpt else excerpt
    context = " ".join(part for part in (words, source.exchange if source else "") if part)
    return document_of_text(fact.pk, fact.user_id, fact.text, context, body)


def document_of_text(pk: int, user_id: int, text: str, context: str, body: str | None = None) -> Document:
    """A document from its text and context: the one rule for facts and episodes alike."""
    embed_text = text
    if settings.MEMORY_RECALL_EMBED_CONTEXT and context:
        embed_text = f"{text}\n{context}"
    return Document(pk, user_id, text if body is None else body, context, embed_text)


def with_answered(turns):
    """Each turn annotated with `answered`: the assistant message of the turn before it in its session."""
    before = (
        Turn.objects.filter(user_id=OuterRef("user_id"), session_id=OuterRef("session_id"))
        .filter(Q(created_at__lt=OuterRef("created_at")) | Q(created_at=OuterRef("created_at"), pk__lt=OuterRef("pk")))
        .order_by("-created_at", "-pk")
        .values("assistant_response")[:1]
    )
    return turns.annotate(answered=Subquery(before))


def exchange_of(answered: str | None, reply: str) -> str:
    """The exchange around the user's words: the end of the assistant message they answered and
    the start of the reply they got. Words stated as an answer ("yes, since May") are found by the
    question's words too ("where do you work?")."""
    cap = settings.MEMORY_RECALL_EXCHANGE_CHARS
    if not cap:
        return ""
    return " ".join(part for part in ((answered or "")[-cap:], (reply or "")[:cap]) if part)


def _source_turns(facts: list[Fact]) -> dict[int, SourceTurn]:
    """turn id -> what the facts stated in that turn index from it (one query for all)."""
    turn_ids = {f.source_turn_id for f in facts if f.source_turn_id}
    if not turn_ids:
        return {}
    rows = with_answered(Turn.objects.filter(pk__in=turn_ids))
    fields = ("pk", "user_input", "episode_withdrawn", "answered", "assistant_response")
    return {
        pk: SourceTurn("" if withdrawn else message, exchange_of(answered, reply))
        for pk, message, withdrawn, answered, reply in rows.values_list(*fields)
    }


def documents(facts: list[Fact]) -> dict[int, Document]:
    """The indexed documents of these facts (entity tags prefetched by the caller)."""
    sources = _source_turns(facts)
    return {
        f.pk: document(f, [t.entity.display_name for t in f.entity_tags.all()], sources.get(f.source_turn_id))
        for f in facts
    }


def _live_documents(fact_ids: list[int]) -> dict[int, Document]:
    facts = Fact.objects.live().filter(pk__in=fact_ids).prefetch_related("entity_tags__entity")
    return documents(list(facts))


@dataclass
class SyncResult:
    indexed: int = 0
    removed: int = 0
    to_embed: list[Document] | None = None


def sync_lexical(fact_ids: list[int]) -> SyncResult:
    """Bring FTS rows of these facts in line with Fact; report which need a new vector.

    The facts are read inside the write transaction (BEGIN IMMEDIATE holds SQLite's write
    lock from the start): a forget cannot commit between the read and the write and have
    its words written back."""
    fact_ids = sorted({int(i) for i in fact_ids})
    model = get_embedder().model_name
    with transaction.atomic():
        docs = _live_documents(fact_ids)
        gone = [fid for fid in fact_ids if fid not in docs]
        removed = fts.delete(gone)
        vec.delete(gone)
        current = fts.indexed_hashes(docs)
        changed = [d for d in docs.values() if current.get(d.fact_id) != d.digest]
        fts.upsert((d.fact_id, d.user_id, d.digest, d.body, d.context) for d in changed)
        have = vec.indexed(docs)
        to_embed = [d for d in docs.values() if have.get(d.fact_id) != (model, d.digest)]
    return SyncResult(indexed=len(changed), removed=removed, to_embed=to_embed)


def encode_vector(vector: np.ndarray) -> str:
    return base64.b64encode(np.asarray(vector, dtype=np.float32).tobytes()).decode()


def decode_vector(data: str) -> np.ndarray:
    return np.frombuffer(base64.b64decode(data), dtype=np.float32)


def compute_vectors(items: list[dict], embedder=None) -> list[dict]:
    """Embed [{fact_id, user_id, digest, text}] -> the same with `vector` (base64) and `model`.

    Needs no database: runs on the `embed` queue, on any machine.
    """
    embedder = embedder or get_embedder()
    out: list[dict] = []
    batch = max(1, settings.MEMORY_EMBED_BATCH_SIZE)
    for start in range(0, len(items), batch):
        chunk = items[start : start + batch]
        matrix = embedder.embed([item["text"] for item in chunk])
        for item, row in zip(chunk, matrix, strict=True):
            out.append({**item, "model": embedder.model_name, "vector": encode_vector(row)})
    return out


def store_vectors(items: list[dict]) -> int:
    """Write computed vectors for facts still live with the same indexed text, checked
    inside the write transaction (see sync_lexical)."""
    if not items:
        return 0
    with transaction.atomic():
        docs = _live_documents([item["fact_id"] for item in items])
        rows, by_model = [], {}
        for item in items:
            doc = docs.get(item["fact_id"])
            if doc is None or doc.digest != item["digest"]:
                continue  # changed or retired since the vector was computed; a newer sync covers it
            rows.append((doc.fact_id, doc.user_id, item["model"], doc.digest, decode_vector(item["vector"]).tobytes()))
            by_model.setdefault(item["model"], []).append(doc.fact_id)
        vec.upsert(rows)
        for model, ids in by_model.items():
            # Index metadata, not a change of the fact: no history, no facts_version bump.
            Fact.objects.filter(pk__in=ids).update(embedding_model=model)
    return len(rows)


def index_now(fact_ids: list[int], embedder=None) -> SyncResult:
    """Synchronous full sync (commands, evaluation): FTS rows and vectors."""
    result = sync_lexical(fact_ids)
    if result.to_embed:
        items = [
            {"fact_id": d.fact_id, "user_id": d.user_id, "digest": d.digest, "text": d.embed_text}
            for d in result.to_embed
        ]
        store_vectors(compute_vectors(items, embedder))
    return result


def forget_vectors(fact_ids: list[int]) -> int:
    """Drop vectors so the next sync re-embeds them (reindex_embeddings --all)."""
    return vec.delete(fact_ids)


def forget(fact_ids: list[int]) -> None:
    """Drop every index row of these facts, whatever Fact says (stale rows)."""
    fts.delete(fact_ids)
    vec.delete(fact_ids)


def erase_user(user_id: int) -> dict:
    """Inside the erase transaction: drop the user's FTS and vector rows."""
    return {"fts_rows": fts.delete_user(user_id), "vectors": vec.delete_user(user_id)}


def count_user(user_id: int) -> dict:
    """What erase_user would drop, without dropping it (the erase preview)."""
    return {"fts_rows": fts.count_user(user_id), "vectors": vec.count_user(user_id)}
