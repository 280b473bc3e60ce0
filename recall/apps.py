from django.apps import AppConfig


class RecallConfig(AppConfig):
    name = "recall"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Registers the system checks and connects the index to facts.signals.
        from recall import checks, receivers  # noqa: F401
