"""The confirmation queue: pending high-risk changes beside the fact they would replace."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from core.errors import Conflict, Rejected
from dashboard.forms import QueueEditForm
from dashboard.views.common import StaffRequest, queue_count, staff_tenant, tenant_context
from dashboard.views.diff import word_diff
from facts import services
from facts.models import Fact, FactHistory, HistoryAction, Status

PAGE = 50


def _current_of(fact: Fact) -> Fact | None:
    """The live fact an approval would supersede, else the one it was proposed against."""
    return services.supersede_target(fact) or fact.replaces


def queue_item(fact: Fact, *, error: str = "") -> dict[str, Any]:
    pending = fact.status == Status.PENDING
    current = _current_of(fact) if pending else None
    decision = None
    if not pending:
        decision = (
            FactHistory.objects.filter(fact_uuid=fact.uuid, action__in=[HistoryAction.CONFIRM, HistoryAction.REJECT])
            .order_by("-created_at", "-id")
            .first()
        )
    return {
        "fact": fact,
        "current": current,
        "diff": word_diff(current.text, fact.text) if current else None,
        "decision": decision,
        "error": error,
    }


@login_required
@require_GET
def queue(request: StaffRequest, tenant_id: UUID) -> HttpResponse:
    tenant = staff_tenant(request, tenant_id)
    pending = (
        Fact.objects.filter(tenant=tenant, status=Status.PENDING)
        .select_related("user", "replaces", "source_turn")
        .order_by("created_at", "id")[:PAGE]
    )
    return render(request, "dashboard/queue.html", tenant_context(tenant, items=[queue_item(f) for f in pending]))


@login_required
@require_POST
def decide(request: StaffRequest, tenant_id: UUID, fact_id: UUID, decision: str) -> HttpResponse:
    tenant = staff_tenant(request, tenant_id)
    fact = get_object_or_404(Fact.objects.select_related("user", "replaces"), tenant=tenant, uuid=fact_id)
    actor = services.Actor.staff(request.user)
    form = QueueEditForm(request.POST)
    error = ""
    if not form.is_valid():
        error = "; ".join(str(e) for errors in form.errors.values() for e in errors)
    else:
        try:
            if decision == "approve":
                text = form.cleaned_data["text"].strip() or None
                services.pending_approve(fact=fact, actor=actor, text=text)
            else:
                services.pending_reject(fact=fact, actor=actor, reason=f"rejected by {actor.id}")
        except (Conflict, Rejected) as exc:
            # Another staff member decided first, or the edited text broke a rule.
            error = exc.detail
    fact = Fact.objects.select_related("user", "replaces", "superseded_by", "source_turn").get(pk=fact.pk)
    if request.htmx:
        context = {"item": queue_item(fact, error=error), "tenant": tenant, "queue_count": queue_count(tenant)}
        return render(request, "dashboard/queue_decision.html", context)
    if error:
        messages.error(request, error)
    else:
        messages.success(request, f"{'Approved' if decision == 'approve' else 'Rejected'}: {fact.text}")
    return redirect("dashboard-queue", tenant_id=tenant.pk)
