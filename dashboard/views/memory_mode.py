"""The user page's memory mode form: staff set what may be stored and recalled for a person."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from dashboard.forms import MemoryModeForm
from dashboard.views.common import StaffRequest, memory_user_or_404, staff_tenant
from facts import services
from facts.models import MemoryUser
from facts.services import memory_mode


def mode_context(user: MemoryUser, form: MemoryModeForm | None = None, *, saved: bool = False) -> dict[str, Any]:
    """What the partial `dashboard/_memory_mode.html` shows: the form and the audit, newest first."""
    return {
        "mode_form": form or MemoryModeForm(initial={"mode": user.memory_mode}),
        "mode_changes": list(user.mode_changes.order_by("-created_at", "-id")[:20]),
        "mode_saved": saved,
    }


@login_required
@require_POST
def user_memory_mode(request: StaffRequest, tenant_id: UUID, user_id: str) -> HttpResponse:
    tenant = staff_tenant(request, tenant_id)
    user = memory_user_or_404(tenant, user_id)
    form = MemoryModeForm(request.POST)
    saved = form.is_valid()
    if saved:
        memory_mode.memory_mode_set(user=user, mode=form.cleaned_data["mode"], actor=services.Actor.staff(request.user))
        user.refresh_from_db()
    if request.htmx:
        context = {"tenant": tenant, "memory_user": user, **mode_context(user, None if saved else form, saved=saved)}
        return render(request, "dashboard/_memory_mode.html", context, status=200 if saved else 400)
    if saved:
        messages.success(request, f"Memory mode of {user.external_id}: {user.memory_mode}.")
    else:
        messages.error(request, "; ".join(str(e) for errors in form.errors.values() for e in errors))
    return redirect("dashboard-user", tenant_id=tenant.pk, user_id=user.external_id)
