"""The dashboard's pages: login, tenants, queue, users, erase, receipts, metrics, webhooks.

The paths are the ones the dashboard always had (bookmarks, README, tests); memory_service/urls.py
mounts them at the root.
"""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path, register_converter

from dashboard.views import erase, home, login, memory_mode, metrics, queue, users, webhooks


class UserIdConverter:
    """A client-chosen user id as one path segment that a browser keeps as it is.

    The API accepts the ids "." and "..", but as path segments a browser removes them (RFC 3986
    dot segments; the WHATWG URL standard treats "%2e" alike): ".../users/./erase/" became
    ".../users/erase/", the page of a user named "erase". So an id made only of dots, or one
    starting with "~", is written with a "~" in front, and a segment starting with "~" is read
    without it. reverse() percent-encodes the rest ("%", "?", "#", spaces, any letter).
    """

    regex = "[^/]+"

    def to_python(self, value: str) -> str:
        return value[1:] if value.startswith("~") else value

    def to_url(self, value: str) -> str:
        return f"~{value}" if value.startswith("~") or set(value) <= {"."} else value


register_converter(UserIdConverter, "user_id")

T = "t/<uuid:tenant_id>"

urlpatterns = [
    path("login/", login.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", home.home, name="dashboard-home"),
    path(f"{T}/", home.overview, name="dashboard-overview"),
    path(f"{T}/queue/", queue.queue, name="dashboard-queue"),
    path(f"{T}/queue/<uuid:fact_id>/approve/", queue.decide, {"decision": "approve"}, name="dashboard-queue-approve"),
    path(f"{T}/queue/<uuid:fact_id>/reject/", queue.decide, {"decision": "reject"}, name="dashboard-queue-reject"),
    path(f"{T}/users/", users.user_list, name="dashboard-users"),
    path(f"{T}/users/<user_id:user_id>/", users.user_detail, name="dashboard-user"),
    path(f"{T}/users/<user_id:user_id>/erase/", erase.user_erase, name="dashboard-user-erase"),
    path(f"{T}/users/<user_id:user_id>/forget-key/", erase.user_forget_key, name="dashboard-user-forget-key"),
    path(f"{T}/users/<user_id:user_id>/export/", erase.user_export, name="dashboard-user-export"),
    path(f"{T}/users/<user_id:user_id>/memory-mode/", memory_mode.user_memory_mode, name="dashboard-user-memory-mode"),
    path(f"{T}/facts/<uuid:fact_id>/history/", users.fact_history, name="dashboard-fact-history"),
    path(f"{T}/erase/", erase.erase_search, name="dashboard-erase"),
    path(f"{T}/receipts/", erase.receipts, name="dashboard-receipts"),
    path(f"{T}/metrics/", metrics.metrics_page, name="dashboard-metrics"),
    path(f"{T}/webhooks/", webhooks.webhooks, name="dashboard-webhooks"),
]
