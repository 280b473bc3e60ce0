"""Translation between mem0's vocabulary and ours (docs/mem0.md has the table)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from core.errors import Rejected
from facts.guard import shown_identifier
from facts.models import Fact, FactHistory, HistoryAction
from mem0_api.schemas import MessageIn
from recall.answer import fact_link, shown_source
from recall.hits import EpisodeHit

# mem0 speaks of ADD/UPDATE/DELETE; our history has finer actions.
EVENTS: dict[str, str] = {
    HistoryAction.INSERT: "ADD",
    HistoryAction.PENDING: "ADD",
    HistoryAction.DELETE: "DELETE",
}
DEFAULT_SESSION = "mem0"
_OTHER_ENTITIES = ("agent_id", "app_id", "run_id")


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def metadata_of(fact: Fact) -> dict[str, Any] | None:
    """mem0's free-form `metadata`: ours says where the memory came from, `{"source": {turn_id,
    session_id, occurred_at, extractor, model}}` (recall.answer.shown_source), or null for one no
    turn stated (stored with infer=False or through /api/v1). Metadata sent on add is not stored."""
    source = shown_source(fact_link(fact))
    return None if source is None else {"source": source}


def memory_json(fact: Fact) -> dict[str, Any]:
    """A fact in the shape mem0's clients read, plus our own fields (status, key, validity, chain)."""
    return {
        "id": str(fact.uuid),
        "memory": fact.text,
        "user_id": fact.user.external_id,
        "hash": fact.text_hash,
        "metadata": metadata_of(fact),
        "categories": [fact.category],
        "created_at": _iso(fact.created_at),
        "updated_at": _iso(fact.updated_at),
        "expiration_date": None,
        "immutable": False,
        "key": shown_identifier(fact.key),
        "status": fact.status,
        "confidence": round(fact.confidence, 3),
        "valid_from": _iso(fact.valid_from),
        "valid_to": _iso(fact.valid_to),
        "superseded_by": str(fact.superseded_by.uuid) if fact.superseded_by else None,
        "replaces": str(fact.replaces.uuid) if fact.replaces else None,
    }


def episode_json(hit: EpisodeHit) -> dict[str, Any]:
    """A recalled episode (recall.hits.EpisodeHit) for the opt-in `episodes` list of a search, from
    its quote (recall.hits.Quote)."""
    quote = hit.quote
    return {
        "turn_id": shown_identifier(quote.turn_id),
        "session_id": shown_identifier(quote.session_id),
        "occurred_at": _iso(quote.occurred_at),
        "text": quote.text,
        "memory_ids": list(quote.facts),
        "score": hit.score,
    }


def history_list(entries: list[FactHistory], user_id: str) -> list[dict[str, Any]]:
    """mem0-style entries, oldest first. Our supersede entry is written on the old version; mem0's
    UPDATE names the new text, which is that of the version named in `superseded_by`."""
    inserted = {str(e.fact_uuid): (e.after or {}).get("text") for e in entries if e.action == HistoryAction.INSERT}
    return [_history_json(entry, user_id, inserted) for entry in entries]


def _history_json(entry: FactHistory, user_id: str, inserted: dict[str, Any]) -> dict[str, Any]:
    before, after = entry.before or {}, entry.after or {}
    new_text = after.get("text")
    if entry.action == HistoryAction.SUPERSEDE and after.get("superseded_by") in inserted:
        new_text = inserted[after["superseded_by"]]
    return {
        "id": str(entry.pk),
        "memory_id": str(entry.fact_uuid),
        "event": EVENTS.get(entry.action, "UPDATE"),
        "action": entry.action,
        "old_memory": before.get("text"),
        "new_memory": new_text,
        "user_id": user_id,
        "input": None,
        "metadata": None,
        "reason": entry.reason,
        "actor": f"{entry.actor_kind}:{entry.actor_id}" if entry.actor_id else entry.actor_kind,
        "created_at": _iso(entry.created_at),
        "updated_at": _iso(entry.created_at),
    }


def _collect(node: object, found: set[str], *, allow_run: bool) -> None:
    if not isinstance(node, dict):
        raise Rejected("filters", "filters must be an object such as {'user_id': '...'}.")
    for name, value in node.items():
        if name in {"AND", "OR"} and isinstance(value, list):
            for part in value:
                _collect(part, found, allow_run=allow_run)
        elif name == "user_id":
            if not isinstance(value, str):
                raise Rejected("filters", "filters.user_id must be a string.")
            found.add(value)
        elif name in _OTHER_ENTITIES and (value is None or (allow_run and name == "run_id")):
            continue
        elif name in _OTHER_ENTITIES:
            raise Rejected("filters", f"{name} is not supported here: memories belong to a user_id.")
        else:
            raise Rejected("filters", f"The filter {name!r} is not supported; filter on user_id.")


def user_id_of(filters: dict[str, Any] | None, top_level: str | None = None, *, allow_run: bool = False) -> str:
    """The one user named by mem0 `filters` (or a top-level user_id), else a 422 that says why."""
    found: set[str] = {top_level} if top_level else set()
    _collect(filters or {}, found, allow_run=allow_run)
    if len(found) != 1:
        raise Rejected("user_id", "Name exactly one user: filters={'user_id': '...'}.")
    return found.pop()


def session_of(filters: dict[str, Any] | None, top_level: str | None) -> str:
    """mem0's run_id is a conversation: our session."""
    run_id = top_level or (filters or {}).get("run_id")
    return run_id if isinstance(run_id, str) and run_id else DEFAULT_SESSION


def turn_texts(messages: Iterable[MessageIn]) -> tuple[str, str]:
    """(user_input, assistant_response) of a turn from mem0 messages; system messages are not memory."""
    said = [m.content for m in messages if m.role == "user" and m.content.strip()]
    replied = [m.content for m in messages if m.role == "assistant" and m.content.strip()]
    if not said:
        raise Rejected("messages", "messages need at least one non-empty 'user' message.")
    return "\n".join(said), "\n".join(replied)
