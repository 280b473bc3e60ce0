"""Keeping the episode index in step with Turn (docs/design.md §10).

An episode is a turn extraction finished as `done` (the salience gate did not
skip it, it did not fail) whose episode was not withdrawn (forgetting a fact
withdraws its source turn's episode). It is indexed like a fact would be: the
user's message as `body`, the exchange around it (the end of the assistant
message it answered, the start of the reply) as the lower-weighted `context`,
and the vector of both. Rows live in the episode tables (recall.tables).
"""

from __future__ import annotations

from django.db import transaction

from facts.models import Turn
from recall import fts, vec
from recall.embeddings import get_embedder
from recall.index import Document, compute_vectors, decode_vector, document_of_text, exchange_of, with_answered
from recall.tables import EPISODES


def episode_documents(turn_ids: list[int]) -> dict[int, Document]:
    """The indexed documents of those turns that are episodes now."""
    rows = with_answered(Turn.objects.episodes().filter(pk__in=turn_ids))
    return {
        pk: document_of_text(pk, user_id, text, exchange_of(answered, reply))
        for pk, user_id, text, answered, reply in rows.values_list(
            "pk", "user_id", "user_input", "answered", "assistant_response"
        )
    }


def sync_episodes(turn_ids: list[int], embedder=None) -> dict:
    """Bring the episode rows of these turns in line with Turn (FTS rows and vectors, at once).

    The turns are read inside each write transaction, as recall.index.sync_lexical does: a
    withdrawal or an erase committed meanwhile is never written back."""
    turn_ids = sorted({int(i) for i in turn_ids})
    model = (embedder or get_embedder()).model_name
    with transaction.atomic():
        docs = episode_documents(turn_ids)
        gone = [pk for pk in turn_ids if pk not in docs]
        removed = fts.delete(gone, EPISODES)
        vec.delete(gone, EPISODES)
        current = fts.indexed_hashes(docs, EPISODES)
        changed = [d for d in docs.values() if current.get(d.fact_id) != d.digest]
        fts.upsert(((d.fact_id, d.user_id, d.digest, d.body, d.context) for d in changed), EPISODES)
        have = vec.indexed(docs, EPISODES)
        to_embed = [d for d in docs.values() if have.get(d.fact_id) != (model, d.digest)]
    if to_embed:
        items = [
            {"fact_id": d.fact_id, "user_id": d.user_id, "digest": d.digest, "text": d.embed_text} for d in to_embed
        ]
        # Embedding takes long: outside the write lock, then checked again inside it.
        computed = compute_vectors(items, embedder)
        with transaction.atomic():
            still = episode_documents([i["fact_id"] for i in computed])
            rows = [
                (i["fact_id"], i["user_id"], i["model"], i["digest"], decode_vector(i["vector"]).tobytes())
                for i in computed
                if i["fact_id"] in still and still[i["fact_id"]].digest == i["digest"]
            ]
            vec.upsert(rows, EPISODES)
    return {"indexed": len(changed), "removed": removed, "embedded": len(to_embed)}


def forget_vectors(turn_ids: list[int]) -> int:
    return vec.delete(turn_ids, EPISODES)


def erase_user(user_id: int) -> dict:
    """Inside the erase transaction: drop the user's episode rows (secure-delete overwrites them)."""
    return {"episode_rows": fts.delete_user(user_id, EPISODES), "episode_vectors": vec.delete_user(user_id, EPISODES)}


def count_user(user_id: int) -> dict:
    """What erase_user would drop, without dropping it (the erase preview)."""
    return {"episode_rows": fts.count_user(user_id, EPISODES), "episode_vectors": vec.count_user(user_id, EPISODES)}
