from django.apps import AppConfig


class RecallConfig(AppConfig):
    name = "recall"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Registers the system checks and the app's tasks (in every process, as facts does),
        # and connects the index to facts.signals.
        from recall import checks, receivers, tasks  # noqa: F401
