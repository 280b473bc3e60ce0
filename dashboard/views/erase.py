"""Delete by user (typed confirmation), delete by user + key, export, and the deletion receipts."""

from __future__ import annotations

import json
from uuid import UUID

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from dashboard.forms import EraseConfirmForm, ForgetKeyForm
from dashboard.views.common import StaffRequest, memory_user_or_404, staff_tenant, tenant_context
from dashboard.views.users import search_users
from facts import privacy
from facts.models import DeletionReceipt, MemoryUser, Tenant
from facts.services import Actor

RECEIPTS_PAGE = 50


@login_required
@require_GET
def erase_search(request: StaffRequest, tenant_id: UUID) -> HttpResponse:
    tenant = staff_tenant(request, tenant_id)
    form, page = search_users(request, tenant)
    if request.htmx:
        return render(
            request, "dashboard/users.html#user-results", tenant_context(tenant, form=form, page=page, row_link="erase")
        )
    recent = DeletionReceipt.objects.filter(tenant=tenant)[:5]
    context = tenant_context(tenant, form=form, page=page, row_link="erase", receipts=recent)
    return render(request, "dashboard/erase_search.html", context)


def _labelled(counts: dict[str, int]) -> list[tuple[str, str, int]]:
    return [(kind, privacy.KIND_LABELS.get(kind, kind), n) for kind, n in counts.items()]


def _render_erase_page(
    request: StaffRequest,
    tenant: Tenant,
    user: MemoryUser,
    *,
    erase_form: EraseConfirmForm,
    key_form: ForgetKeyForm,
    keys: list[tuple[str, int]],
    status: int,
) -> HttpResponse:
    """The erase page (counts preview, typed confirmation, delete by key), with either form's errors."""
    context = tenant_context(
        tenant,
        memory_user=user,
        preview=_labelled(privacy.erase_preview(user=user)),
        erase_form=erase_form,
        key_form=key_form,
        keys=keys,
    )
    return render(request, "dashboard/user_erase.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def user_erase(request: StaffRequest, tenant_id: UUID, user_id: str) -> HttpResponse:
    tenant = staff_tenant(request, tenant_id)
    user = memory_user_or_404(tenant, user_id)
    keys = privacy.user_keys(user=user)
    erase_form = EraseConfirmForm(request.POST or None, expected=user.external_id)
    key_form = ForgetKeyForm(keys=keys)
    if request.method == "POST" and erase_form.is_valid():
        receipt = privacy.user_erase(user=user, actor=Actor.staff(request.user))
        total = sum(receipt.counts.values())
        messages.success(request, f"User erased: {total} rows deleted. Receipt #{receipt.pk} was kept.")
        return redirect("dashboard-receipts", tenant_id=tenant.pk)
    status = 400 if request.method == "POST" else 200
    return _render_erase_page(request, tenant, user, erase_form=erase_form, key_form=key_form, keys=keys, status=status)


@login_required
@require_POST
def user_forget_key(request: StaffRequest, tenant_id: UUID, user_id: str) -> HttpResponse:
    tenant = staff_tenant(request, tenant_id)
    user = memory_user_or_404(tenant, user_id)
    keys = privacy.user_keys(user=user)
    key_form = ForgetKeyForm(request.POST, keys=keys)
    if key_form.is_valid():
        key = key_form.cleaned_data["key"]
        receipt = privacy.user_forget_key(user=user, key=key, actor=Actor.staff(request.user))
        messages.success(request, f"Deleted {receipt.counts['facts']} fact(s) with key {key}. Receipt #{receipt.pk}.")
        return redirect("dashboard-receipts", tenant_id=tenant.pk)
    erase_form = EraseConfirmForm(expected=user.external_id)
    return _render_erase_page(request, tenant, user, erase_form=erase_form, key_form=key_form, keys=keys, status=400)


@login_required
@require_GET
def user_export(request: StaffRequest, tenant_id: UUID, user_id: str) -> HttpResponse:
    tenant = staff_tenant(request, tenant_id)
    user = memory_user_or_404(tenant, user_id)
    data = privacy.user_export(user=user)
    response = HttpResponse(
        json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2),
        content_type="application/json; charset=utf-8",
    )
    # The file name carries the hash, not the user id, so downloads folders hold no personal data.
    digest = privacy.user_hash(tenant_id=tenant.pk, external_id=user.external_id)[:16]
    response["Content-Disposition"] = f'attachment; filename="memory-export-{digest}.json"'
    return response


@login_required
@require_GET
def receipts(request: StaffRequest, tenant_id: UUID) -> HttpResponse:
    tenant = staff_tenant(request, tenant_id)
    page = Paginator(DeletionReceipt.objects.filter(tenant=tenant), RECEIPTS_PAGE).get_page(request.GET.get("page"))
    return render(request, "dashboard/receipts.html", tenant_context(tenant, page=page))
