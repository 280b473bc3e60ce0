"""POST /api/v1/users/{user_id}/recall (docs/api.md): a thin handler over recall.services."""

from __future__ import annotations

from django.http import HttpResponse
from ninja import Router

from facts import selectors as fact_selectors
from facts import services as fact_services
from memory_service.auth import require_scope
from memory_service.schemas import UserId, errors, rendered
from recall import services
from recall.client_search import floor_rule
from recall.schemas import RecallIn, RecallOut, RecallWithSourcesOut

router = Router(tags=["recall"])


def _episode_item(hit) -> dict:
    return {
        "kind": "episode",
        "episode": {
            "turn_id": hit.turn.turn_id,
            "session_id": hit.turn.session_id,
            "occurred_at": hit.turn.occurred_at,
            "text": hit.text,
            "facts": [str(f.uuid) for f in hit.facts],
            "injection_rule": floor_rule(hit.text),
        },
        "score": hit.score,
        "signals": hit.signals,
    }


@router.post(
    "/users/{user_id}/recall", response={200: RecallOut | RecallWithSourcesOut, **errors(400, 401, 403, 404, 422)}
)
def recall(request, user_id: UserId, payload: RecallIn):
    tenant = require_scope(request, "read")
    user = fact_services.memory_user_get(tenant=tenant, user_id=user_id)
    result = services.recall(
        user=user,
        query=payload.query,
        k=payload.k,
        mode=payload.mode,
        budget_chars=payload.budget_chars,
        as_of=payload.as_of,
        sources=payload.sources or ("facts",),
    )
    # FactOut shows entities and linked ids; read them in bulk, not per hit.
    fact_selectors.attach_output_links([hit.fact for hit in result.items if hit.kind == "fact"])
    if payload.sources is None:  # a v1 client: the v1 shape, byte for byte
        items = [{"fact": hit.fact, "score": hit.score, "signals": hit.signals} for hit in result.items]
        # Validated against this shape only, not the declared union (memory_service.schemas.rendered).
        return rendered(
            request, RecallOut.model_validate({"items": items, "mode": result.mode, "degraded": result.degraded})
        )
    mixed = [
        {"kind": "fact", "fact": hit.fact, "score": hit.score, "signals": hit.signals}
        if hit.kind == "fact"
        else _episode_item(hit)
        for hit in result.items
    ]
    # Validated here and rendered as is: the declared union would also accept this body as the
    # v1 shape when every item is a fact, and drop `kind`.
    body = RecallWithSourcesOut.model_validate({"items": mixed, "mode": result.mode, "degraded": result.degraded})
    return HttpResponse(body.model_dump_json(), content_type="application/json")
