"""Keeping the episode index in step with Turn (docs/design.md §10).

An episode is a turn extraction finished as `done` (the salience gate did not
skip it, it did not fail) whose episode was not withdrawn (forgetting a fact
withdraws its source turn's episode). It is indexed like a fact would be: the
user's message as `body`, the exchange around it (the end of the assistant
message it answered, the start of the reply) as the lower-weighted `context`,
and the vector of both. With MEMORY_RECALL_TURN_KEYS=words+facts the body (and the
vector) also hold the live facts extracted from the turn (recall.turn_keys). Rows
live in the episode tables (recall.tables).
"""

from __future__ import annotations

from facts.models import Turn
from facts.selectors import of_users
from recall import fts, turn_keys, vec
from recall.index import Document, document_of_text, exchange_of, with_answered
from recall.tables import EPISODES


def episode_documents(
    turn_ids: list[int], *, lock: bool = False, users: list[int] | None = None
) -> dict[int, Document]:
    """The indexed documents of those turns that are episodes now (rows locked with `lock`); with
    MEMORY_RECALL_TURN_KEYS=words+facts each holds the live facts extracted from it too. `users`:
    the turns' people, when known (facts.selectors.of_users)."""
    facts = turn_keys.facts_said(turn_ids, lock=lock, users=users)
    turns = of_users(Turn.objects.episodes().filter(pk__in=turn_ids), users)
    # Locked by primary key, like every locking read of a set (recall.index.live_documents).
    rows = with_answered(turns.select_for_update().order_by("pk") if lock else turns, users)
    # `answered` is with_answered's annotation, which the type of a queryset of turns does not name.
    fields = ("pk", "user_id", "user_input", "answered", "assistant_response")
    return {
        pk: document_of_text(pk, user_id, turn_keys.key_text(text, facts.get(pk, "")), exchange_of(answered, reply))
        for pk, user_id, text, answered, reply in rows.values_list(*fields)
    }


def forget_vectors(turn_ids: list[int]) -> int:
    return vec.delete(turn_ids, EPISODES)


def erase_user(user_id: int) -> dict[str, int]:
    """Inside the erase transaction: drop the user's episode rows (secure-delete overwrites them)."""
    return {"episode_rows": fts.delete_user(user_id, EPISODES), "episode_vectors": vec.delete_user(user_id, EPISODES)}


def count_user(user_id: int) -> dict[str, int]:
    """What erase_user would drop, without dropping it (the erase preview)."""
    return {"episode_rows": fts.count_user(user_id, EPISODES), "episode_vectors": vec.count_user(user_id, EPISODES)}
