"""POST /api/v1/users/{user_id}/recall (docs/api.md): a thin handler over recall.services."""

from __future__ import annotations

from django.db.models import prefetch_related_objects
from ninja import Router

from facts import services as fact_services
from memory_service.auth import require_scope
from memory_service.schemas import UserId, errors
from recall import services
from recall.schemas import RecallIn, RecallOut

router = Router(tags=["recall"])


@router.post("/users/{user_id}/recall", response={200: RecallOut, **errors(400, 401, 403, 404, 422)})
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
    )
    # FactOut shows entities and linked ids; load them in bulk, not per hit.
    prefetch_related_objects(
        [hit.fact for hit in result.items], "entity_tags__entity", "superseded_by", "replaces", "source_turn"
    )
    return {"items": result.items, "mode": result.mode, "degraded": result.degraded}
