"""Why the service knows a fact (`GET /facts/{id}/provenance`, docs/api.md): the turn it was
said in, the extraction that read it, and every decision over its supersession chain, in order.

Never a forgotten fact's words: decisions come without the before/after snapshots history keeps,
and the turn's words only while recall may quote them (an episode: extracted `done`, not
withdrawn by a forget of a fact it stated, docs/design.md §10), as data with the injection
floor's rule, as REST recall returns a quote.
"""

from __future__ import annotations

from typing import Any

from core.errors import Rejected
from facts.guard import check_untrusted_text
from facts.models import ActorKind, Fact, FactHistory, HistoryAction, Turn
from facts.selectors import fact_history
from facts.turn_state import by_key

# The entries that let a fact in: stored at once, or queued for a staff decision.
_ADMISSIONS = (HistoryAction.INSERT, HistoryAction.PENDING)


def extractor_parts(extractor: str) -> tuple[str | None, str | None]:
    """A turn's `extractor` ("llm:<model>" or "rules") as (name, model); (None, None) when unknown."""
    name, _, model = extractor.partition(":")
    return name or None, model or None


def _floor_rule(text: str) -> str | None:
    try:
        check_untrusted_text(text)
    except Rejected as refused:
        return refused.rule
    return None


def turn_source(turn: Turn) -> dict[str, Any]:
    """The source turn: ids and time always; its words only while recall may quote them."""
    quotable = Turn.objects.episodes().filter(**by_key(turn.pk, turn.user_id)).exists()
    quote = {"text": turn.user_input, "injection_rule": _floor_rule(turn.user_input)} if quotable else None
    return {
        "turn_id": turn.turn_id,
        "session_id": turn.session_id,
        "occurred_at": turn.occurred_at,
        "quote": quote,
    }


def _extraction(fact: Fact, turn: Turn | None, entries: list[FactHistory]) -> dict[str, Any]:
    admitted = next((e for e in entries if e.fact_uuid == fact.uuid and e.action in _ADMISSIONS), None)
    by_extractor = admitted is not None and admitted.actor_kind == ActorKind.EXTRACTOR
    name, model = extractor_parts(turn.extractor) if turn is not None and by_extractor else (None, None)
    return {
        "actor_kind": admitted.actor_kind if admitted else None,
        "actor_id": admitted.actor_id if admitted else None,
        "extractor": name or (admitted.actor_id if by_extractor and admitted else None),
        "model": model,
        "at": admitted.created_at if admitted else fact.created_at,
    }


def _decision(entry: FactHistory) -> dict[str, Any]:
    return {
        "fact_id": entry.fact_uuid,
        "action": entry.action,
        "actor_kind": entry.actor_kind,
        "actor_id": entry.actor_id,
        "source_turn_id": entry.source_turn_id or None,
        "reason": entry.reason,
        "created_at": entry.created_at,
    }


def fact_provenance(*, fact: Fact) -> dict[str, Any]:
    """The provenance answer for a fact already checked to be the caller's tenant's."""
    said = fact.source_turn_id
    turn = Turn.objects.filter(**by_key(said, fact.user_id)).first() if said else None
    entries = list(fact_history(fact=fact))
    return {
        "fact_id": fact.uuid,
        "user_id": fact.user.external_id,
        "status": fact.status,
        "source": turn_source(turn) if turn is not None else None,
        "extraction": _extraction(fact, turn, entries),
        "decisions": [_decision(e) for e in entries],
    }
