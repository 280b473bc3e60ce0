"""REST recall's answer, built from a recall result: the one place that turns hits into the items a
caller receives. `/recall` returns it, and the evaluations (bench.locomo, bench.longmemeval_run)
score it, so what is counted is what is returned (docs/recall.md).

Also the one builder of a hit's provenance (`provenance_out`), which every door returns: REST
recall as is, MCP and mem0 through `shown_source` (docs/api.md)."""

from __future__ import annotations

from typing import Any

from core.timestamps import in_utc
from facts import selectors as fact_selectors
from facts.guard import shown_identifier
from facts.models import Fact, Turn
from facts.provenance import extractor_parts
from recall.hits import FactHit, Hit, Quote
from recall.schemas import RecallOut, RecallWithSourcesOut
from recall.services import RecallResult


def episode_out(quote: Quote) -> dict[str, Any]:
    """A turn's words as REST shows them: raw, as data, with the injection rule they break."""
    return {
        "turn_id": quote.turn_id,
        "session_id": quote.session_id,
        "occurred_at": quote.occurred_at,
        "text": quote.text,
        "facts": list(quote.facts),
        "injection_rule": quote.injection_rule,
    }


def provenance_out(link: fact_selectors.TurnLink | None) -> dict[str, Any]:
    """Where a hit came from, without words (those are the quote's, under its rules): the turn
    it was said in and what extracted it; every field null when there is no such turn."""
    if link is None:
        return {"turn_id": None, "session_id": None, "occurred_at": None, "extractor": None, "model": None}
    name, model = extractor_parts(link.extractor)
    return {
        "turn_id": link.turn_id,
        "session_id": link.session_id,
        "occurred_at": link.occurred_at,
        "extractor": name,
        "model": model,
    }


def turn_link(turn: Turn) -> fact_selectors.TurnLink:
    return fact_selectors.TurnLink(turn.turn_id, turn.session_id, turn.occurred_at, turn.extractor)


def fact_link(fact: Fact) -> fact_selectors.TurnLink | None:
    """The turn a fact was said in: as read in bulk with its other links (facts.selectors.
    attach_output_links), else from the turn loaded with it (select_related or prefetched by the
    door); None for a fact no turn stated (stored through an API, or its turn withdrawn)."""
    if hasattr(fact, "source_link"):
        link: fact_selectors.TurnLink | None = fact.source_link
        return link
    turn = fact.source_turn  # no query for a fact without one
    return None if turn is None else turn_link(turn)


def shown_source(link: fact_selectors.TurnLink | None) -> dict[str, Any] | None:
    """A hit's provenance as the doors whose answers reach a model show it (MCP, mem0): null
    without a turn; the ids as those doors show every stored id (facts.guard.shown_identifier),
    the time in ISO 8601 UTC. No words: a quote stays under its own rules."""
    if link is None:
        return None
    source = provenance_out(link)
    return {
        **source,
        "turn_id": shown_identifier(link.turn_id),
        "session_id": shown_identifier(link.session_id),
        "occurred_at": in_utc(link.occurred_at).isoformat(),
    }


def _item(hit: Hit) -> dict[str, Any]:
    if hit.kind == "episode":
        return {
            "kind": "episode",
            "episode": episode_out(hit.quote),
            "folded_facts": hit.folded_facts,
            "score": hit.score,
            "signals": hit.signals,
            "provenance": provenance_out(turn_link(hit.turn)),
        }
    quote = hit.quote
    return {
        "kind": "fact",
        "fact": hit.fact,
        "quote": episode_out(quote) if quote is not None else None,
        "score": hit.score,
        "signals": hit.signals,
        # Read with the fact's other links (facts.selectors.attach_output_links): no query per hit.
        "provenance": provenance_out(fact_link(hit.fact)),
    }


def _attach_links(result: RecallResult) -> None:
    # FactOut shows entities and linked ids; read them in bulk, not per hit.
    facts = [hit.fact for hit in result.items if hit.kind == "fact"]
    facts += [fact for hit in result.items for fact in hit.folded_facts]
    fact_selectors.attach_output_links(facts)


def with_sources(result: RecallResult) -> RecallWithSourcesOut:
    """The body of `/recall` for a request naming `sources`: one item per hit, each with what was
    folded into it. The evaluations score these items."""
    _attach_links(result)
    items = [_item(hit) for hit in result.items]
    return RecallWithSourcesOut.model_validate({"items": items, "mode": result.mode, "degraded": result.degraded})


def v1(result: RecallResult) -> RecallOut:
    """The body of `/recall` for a request without `sources`: facts only, the v1 shape (no `kind`),
    each with its `provenance` (added to that shape, as with `sources`)."""
    _attach_links(result)
    items = [
        {
            "fact": hit.fact,
            "score": hit.score,
            "signals": hit.signals,
            "provenance": provenance_out(fact_link(hit.fact)),
        }
        for hit in result.items
        if isinstance(hit, FactHit)  # always: without `sources` recall returns facts only
    ]
    return RecallOut.model_validate({"items": items, "mode": result.mode, "degraded": result.degraded})
