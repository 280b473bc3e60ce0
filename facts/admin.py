from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from facts.models import ApiKey, DeletionReceipt, Tenant

# Django's admin classes are generic only in django-stubs: ModelAdmin[Tenant] as a base fails at
# run time (django_stubs_ext.monkeypatch would fix that, but it is a dev-only package), so the
# typed bases are named for mypy alone.
if TYPE_CHECKING:
    KeyInlineBase = admin.TabularInline[ApiKey, Tenant]
    TenantAdminBase = admin.ModelAdmin[Tenant]
    ApiKeyAdminBase = admin.ModelAdmin[ApiKey]
    ReceiptAdminBase = admin.ModelAdmin[DeletionReceipt]
else:
    KeyInlineBase = admin.TabularInline
    TenantAdminBase = ApiKeyAdminBase = ReceiptAdminBase = admin.ModelAdmin


class ApiKeyInline(KeyInlineBase):
    model = ApiKey
    extra = 0
    fields = ("name", "prefix", "scopes", "created_at", "last_used_at", "revoked_at")
    readonly_fields = ("prefix", "created_at", "last_used_at")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Tenant | None = None) -> bool:
        return False  # keys are issued by create_tenant / issue_key, which show the secret once


@admin.register(Tenant)
class TenantAdmin(TenantAdminBase):
    list_display = ("name", "id", "created_at", "allow_sensitive_context")
    search_fields = ("name",)
    filter_horizontal = ("staff",)
    inlines = [ApiKeyInline]


@admin.action(description="Revoke the selected keys")
def revoke_keys(modeladmin: ApiKeyAdmin, request: HttpRequest, queryset: QuerySet[ApiKey]) -> None:
    for key in queryset:
        key.revoke()


@admin.register(ApiKey)
class ApiKeyAdmin(ApiKeyAdminBase):
    list_display = ("name", "prefix", "tenant", "scopes", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    readonly_fields = ("key_hash", "prefix", "created_at", "last_used_at")
    actions = [revoke_keys]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(DeletionReceipt)
class DeletionReceiptAdmin(ReceiptAdminBase):
    list_display = ("created_at", "tenant", "scope", "user_hash", "actor_kind", "actor_id")
    readonly_fields = [f.name for f in DeletionReceipt._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: DeletionReceipt | None = None) -> bool:
        return False
