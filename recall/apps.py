from django.apps import AppConfig


class RecallConfig(AppConfig):
    name = "recall"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from recall import checks  # noqa: F401  (registers the system checks)
        from recall import receivers  # noqa: F401  (connects the index to facts.signals)
