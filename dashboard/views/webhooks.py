"""The dashboard's webhooks page: the tenant's endpoints and the delivery log, newest first."""

from __future__ import annotations

from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from dashboard.views.common import StaffRequest, staff_tenant, tenant_context
from webhooks.models import WebhookDelivery, WebhookEndpoint

LOG_PAGE = 50


@login_required
@require_GET
def webhooks(request: StaffRequest, tenant_id: UUID) -> HttpResponse:
    tenant = staff_tenant(request, tenant_id)
    endpoints = WebhookEndpoint.objects.filter(tenant=tenant).order_by("created_at", "pk")
    log = WebhookDelivery.objects.filter(tenant=tenant).select_related("endpoint").order_by("-created_at", "-pk")
    page = Paginator(log, LOG_PAGE).get_page(request.GET.get("page"))
    return render(request, "dashboard/webhooks.html", tenant_context(tenant, endpoints=endpoints, page=page))
