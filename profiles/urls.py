"""Pages of the profiles app: the dashboard's metrics page and Prometheus /metrics."""

from __future__ import annotations

from django.urls import path

from profiles import views

urlpatterns = [
    path("t/<uuid:tenant_id>/metrics/", views.metrics_page, name="dashboard-metrics"),
    path("metrics", views.prometheus_metrics, name="prometheus-metrics"),
]
