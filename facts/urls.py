"""Dashboard pages of the facts app: login, tenants, queue, users, erase, receipts."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

from facts.views import erase, home, login, queue, users

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
    path(f"{T}/users/<str:user_id>/", users.user_detail, name="dashboard-user"),
    path(f"{T}/users/<str:user_id>/erase/", erase.user_erase, name="dashboard-user-erase"),
    path(f"{T}/users/<str:user_id>/forget-key/", erase.user_forget_key, name="dashboard-user-forget-key"),
    path(f"{T}/users/<str:user_id>/export/", erase.user_export, name="dashboard-user-export"),
    path(f"{T}/facts/<uuid:fact_id>/history/", users.fact_history, name="dashboard-fact-history"),
    path(f"{T}/erase/", erase.erase_search, name="dashboard-erase"),
    path(f"{T}/receipts/", erase.receipts, name="dashboard-receipts"),
]
