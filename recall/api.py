"""POST /api/v1/users/{user_id}/recall (docs/api.md): a thin handler over recall.services."""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from ninja import Router

from core.schemas import UserId, errors, rendered
from facts import replicas
from facts import services as fact_services
from facts.auth import KeyRequest, require_scope
from facts.services.memory_mode import recall_withheld
from recall import answer, services
from recall.schemas import RecallIn, RecallOut, RecallWithSourcesOut

router = Router(tags=["recall"])


@router.post(
    "/users/{user_id}/recall", response={200: RecallOut | RecallWithSourcesOut, **errors(400, 401, 403, 404, 422)}
)
def recall(request: KeyRequest, user_id: UserId, payload: RecallIn) -> HttpResponse:
    tenant = require_scope(request, "read")
    user = fact_services.memory_user_get(tenant=tenant, user_id=user_id)
    if reason := recall_withheld(user):  # the person's memory mode is off (docs/api.md)
        return JsonResponse({"items": [], "mode": payload.mode, "degraded": False, "reason": reason})
    # On a replica that has this user's last write, or the primary (facts/replicas.py).
    with replicas.reading_for(user):
        result = services.recall(
            user=user,
            query=payload.query,
            k=payload.k,
            mode=payload.mode,
            budget_chars=payload.budget_chars,
            as_of=payload.as_of,
            sources=payload.sources or ("facts",),
        )
        # Rendered inside: the answer reads the facts' entities from the same database.
        if payload.sources is None:  # a v1 client: the v1 shape, byte for byte
            # Validated against this shape only, not the declared union (core.schemas.rendered).
            return rendered(request, answer.v1(result))
        # Rendered as is: the declared union would also accept this body as the v1 shape when every
        # item is a fact, and drop `kind`.
        return HttpResponse(answer.with_sources(result).model_dump_json(), content_type="application/json")
