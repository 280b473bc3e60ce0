"""Profile, session end, context block and metrics routes (docs/api.md): thin handlers."""

from __future__ import annotations

from typing import Any, Literal

from django.http import JsonResponse
from ninja import Router, Status

from core.errors import Rejected
from core.schemas import SessionId, UserId, errors
from facts import replicas
from facts import services as fact_services
from facts.auth import KeyRequest, require_scope
from facts.services.memory_mode import recall_withheld
from profiles import metrics, services
from profiles.models import ProfileTrigger
from profiles.schemas import ContextIn, ContextOut, MetricsOut, ProfileOut, SessionEndOut
from profiles.tasks import enqueue_projection
from profiles.tokens import ENCODING_NAME

router = Router(tags=["profiles"])


@router.get("/users/{user_id}/profile", response={200: ProfileOut, **errors(401, 403, 404, 422)})
def get_profile(request: KeyRequest, user_id: UserId) -> dict[str, Any]:
    tenant = require_scope(request, "read")
    user = fact_services.memory_user_get(tenant=tenant, user_id=user_id)
    profile = services.profile_latest(user) or services.profile_refresh(user_pk=user.pk, trigger=ProfileTrigger.ON_READ)
    assert profile is not None  # refresh returns None only for a user that no longer exists
    return {
        "user_id": user.external_id,
        "version": profile.version,
        "facts_version": profile.facts_version,
        "current": services.profile_is_current(profile, user),
        "trigger": profile.trigger,
        "created_at": profile.created_at,
        "updated_at": profile.updated_at,
        **profile.data,
    }


@router.post("/users/{user_id}/sessions/{session_id}/end", response={202: SessionEndOut, **errors(401, 403, 404, 422)})
def end_session(request: KeyRequest, user_id: UserId, session_id: SessionId) -> Status[dict[str, str]]:
    tenant = require_scope(request, "write")
    if not 1 <= len(session_id) <= 128:
        raise Rejected("session_id", "session_id must be 1-128 characters.")
    user = fact_services.memory_user_get(tenant=tenant, user_id=user_id)
    queued = enqueue_projection(user.pk, ProfileTrigger.SESSION_END)
    # The session end itself is never refused: the profile is derived data and
    # the next trigger rebuilds it. The status says whether it was queued now.
    status = "projection queued" if queued else "projection not queued (see the server log); the next trigger projects"
    return Status(202, {"user_id": user.external_id, "session_id": session_id, "status": status})


@router.post("/users/{user_id}/context", response={200: ContextOut, **errors(400, 401, 403, 404, 422)})
def context(request: KeyRequest, user_id: UserId, payload: ContextIn) -> dict[str, Any] | JsonResponse:
    tenant = require_scope(request, "read")
    user = fact_services.memory_user_get(tenant=tenant, user_id=user_id)
    if reason := recall_withheld(user):  # the person's memory mode is off: an empty block
        empty = {"text": "", "tokens": 0, "max_tokens": payload.max_tokens, "tokenizer": ENCODING_NAME}
        return JsonResponse({**empty, "sections": [], "dropped": [], "recall": None, "reason": reason})
    with replicas.reading_for(user):  # facts/replicas.py
        block = services.context_block(user=user, query=payload.query, max_tokens=payload.max_tokens, cite=payload.cite)
    return {
        "text": block.text,
        "tokens": block.tokens,
        "max_tokens": block.max_tokens,
        "tokenizer": ENCODING_NAME,
        "sections": block.sections,
        "dropped": block.dropped,
        "recall": block.recall or None,
        "citations": block.citations,
    }


@router.get("/metrics", response={200: MetricsOut, **errors(401, 403, 422)})
def tenant_metrics(request: KeyRequest, window: Literal["1h", "24h", "7d", "30d"] = "7d") -> dict[str, Any]:
    tenant = require_scope(request, "read")
    return metrics.tenant_metrics(tenant, window=window)
