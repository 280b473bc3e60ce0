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
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NotRequired, TypedDict

import numpy as np
from django.conf import settings
from django.db.models import OuterRef, Prefetch, Q, QuerySet, Subquery

from facts.models import Entity, Fact, Turn
from facts.selectors import of_users
from recall import fts, vec
from recall.embeddings import Embedder, embedder_for
from recall.slots import configured_model


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


def with_answered(turns: QuerySet[Turn], users: Iterable[int] | None = None) -> QuerySet[Turn]:
    """Each turn annotated with `answered`: the assistant message of the turn before it in its
    session. `users`, the turns' people when known, keeps the inner read in their partitions at
    planning (the outer row's user alone is known only as each row runs)."""
    before = (
        of_users(Turn.objects.all(), users)
        .filter(user_id=OuterRef("user_id"), session_id=OuterRef("session_id"))
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
    # The facts' own people's turns: on PostgreSQL their partitions alone (facts.selectors.of_users).
    users = {f.user_id for f in facts}
    rows = with_answered(of_users(Turn.objects.filter(pk__in=turn_ids), users), users)
    fields = ("pk", "user_input", "episode_withdrawn", "answered", "assistant_response")
    return {
        pk: SourceTurn("" if withdrawn else message, exchange_of(answered, reply))
        for pk, message, withdrawn, answered, reply in rows.values_list(*fields)
    }


def documents(facts: list[Fact]) -> dict[int, Document]:
    """The indexed documents of these facts (entity tags prefetched by the caller)."""
    sources = _source_turns(facts)
    return {
        f.pk: document(
            f,
            [t.entity.display_name for t in f.entity_tags.all()],
            sources.get(f.source_turn_id) if f.source_turn_id else None,
        )
        for f in facts
    }


def live_documents(fact_ids: list[int], *, lock: bool = False, users: list[int] | None = None) -> dict[int, Document]:
    """The indexed documents of those facts that are live now; `users`: their people, when known."""
    # The tags' entities are the facts' people's too: named, so their partitions only are read.
    entities = Prefetch("entity_tags__entity", of_users(Entity.objects.all(), users))
    facts = of_users(Fact.objects.live().filter(pk__in=fact_ids), users).prefetch_related(entities)
    if lock:
        # Rows are locked in the order they are read: every locking read of a set of facts takes
        # them by primary key, so two transactions locking overlapping sets cannot deadlock.
        facts = facts.select_for_update().order_by("pk")
    return documents(list(facts))


def encode_vector(vector: np.ndarray) -> str:
    return base64.b64encode(np.asarray(vector, dtype=np.float32).tobytes()).decode()


def decode_vector(data: str) -> np.ndarray:
    return np.frombuffer(base64.b64decode(data), dtype=np.float32)


class EmbedItem(TypedDict):
    """A text the `embed` queue computes a vector for, as its Celery message carries it (JSON)."""

    kind: NotRequired[str]  # PendingIndex.Kind; a fact when absent
    fact_id: int  # the fact's or the turn's pk
    user_id: int
    digest: str
    text: str


class VectorItem(EmbedItem):
    """An EmbedItem with its vector, on its way back to the `db` queue (store_vectors)."""

    model: str
    vector: str  # float32, base64 (encode_vector)


def compute_vectors(items: list[EmbedItem], embedder: Embedder | None = None) -> list[VectorItem]:
    """Embed [{fact_id, user_id, digest, text}] -> the same with `vector` (base64) and `model`.

    Needs no database: runs on the `embed` queue, on any machine, with the model its settings
    name (after a live switch, set the new model there too: docs/deployment.md).
    """
    embedder = embedder or embedder_for(configured_model())
    out: list[VectorItem] = []
    batch = max(1, settings.MEMORY_EMBED_BATCH_SIZE)
    for start in range(0, len(items), batch):
        chunk = items[start : start + batch]
        matrix = embedder.embed([item["text"] for item in chunk])
        for item, row in zip(chunk, matrix, strict=True):
            out.append({**item, "model": embedder.model_name, "vector": encode_vector(row)})
    return out


def forget_vectors(fact_ids: list[int]) -> int:
    """Drop vectors so the next sync re-embeds them (reindex_embeddings --all)."""
    return vec.delete(fact_ids)


def forget(fact_ids: list[int]) -> None:
    """Drop every index row of these facts, whatever Fact says (stale rows)."""
    fts.delete(fact_ids)
    vec.delete(fact_ids)


def erase_user(user_id: int) -> dict[str, int]:
    """Inside the erase transaction: drop the user's FTS and vector rows."""
    return {"fts_rows": fts.delete_user(user_id), "vectors": vec.delete_user(user_id)}


def count_user(user_id: int) -> dict[str, int]:
    """What erase_user would drop, without dropping it (the erase preview)."""
    return {"fts_rows": fts.count_user(user_id), "vectors": vec.count_user(user_id)}
