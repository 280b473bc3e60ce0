from django.apps import AppConfig


class DashboardConfig(AppConfig):
    """The staff dashboard: pages over the other apps' services, on the top floor below the
    project package (docs/design.md, "Code layout"). It has no models."""

    name = "dashboard"
    verbose_name = "Dashboard"
