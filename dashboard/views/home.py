"""The staff member's tenants, and one tenant's overview."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from dashboard.views.common import StaffRequest, staff_tenant, tenant_context
from facts import selectors
from facts.extraction.status import extractor_state
from facts.models import DeletionReceipt, Fact, MemoryUser, Turn, TurnState
from facts.permissions import tenants_for
from recall.reports import embedder_health


@login_required
@require_GET
def home(request: StaffRequest) -> HttpResponse:
    tenants = list(tenants_for(request.user).annotate(n_users=Count("memory_users")).order_by("name"))
    pending = selectors.pending_counts(tenants=tenants)
    rows = [{"tenant": t, "users": t.n_users, "queue": pending.get(t.pk, 0)} for t in tenants]
    return render(request, "dashboard/home.html", {"rows": rows})


def _state(read: Callable[[], Mapping[str, object]]) -> dict[str, object]:
    # The overview must still render when a provider cannot even report its state.
    try:
        return {name: _readable(name, value) for name, value in dict(read()).items()}
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}


def _readable(name: str, value: object) -> object:
    """What a person reads: a mapping as "key: value" pairs, a `*_at` epoch as a UTC time."""
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_readable(str(k), v)}" for k, v in value.items()) or "none"
    if name.endswith("_at") and isinstance(value, int | float) and not isinstance(value, bool):
        return datetime.fromtimestamp(value, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return value


@login_required
@require_GET
def overview(request: StaffRequest, tenant_id: UUID) -> HttpResponse:
    tenant = staff_tenant(request, tenant_id)
    by_state = dict(Turn.objects.filter(tenant=tenant).values_list("state").annotate(n=Count("id")))
    context = tenant_context(
        tenant,
        users=MemoryUser.objects.filter(tenant=tenant).count(),
        live_facts=Fact.objects.filter(tenant=tenant).live().count(),
        turns_by_state=[(state.label, state.value, by_state.get(state.value, 0)) for state in TurnState],
        turns_total=sum(by_state.values()),
        receipts=DeletionReceipt.objects.filter(tenant=tenant).count(),
        extractor=_state(extractor_state),
        embedder=_state(embedder_health),
    )
    return render(request, "dashboard/overview.html", context)
