from django.apps import AppConfig


class FactsConfig(AppConfig):
    name = "facts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Tasks outside tasks.py, registered when Django (and so the worker) starts.
        from facts import bookkeeping  # noqa: F401
