from __future__ import annotations

from django.apps import AppConfig


class MemoryServiceConfig(AppConfig):
    """The project package as an app, so its system checks register at start-up."""

    name = "memory_service"

    def ready(self) -> None:
        from core import checks  # noqa: F401
        from memory_service import settings_checks  # noqa: F401
