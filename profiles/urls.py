"""Prometheus /metrics (the dashboard's metrics page is in dashboard/urls.py)."""

from __future__ import annotations

from django.urls import path

from profiles import views

urlpatterns = [
    path("metrics", views.prometheus_metrics, name="prometheus-metrics"),
]
