from django.apps import AppConfig


class FactsConfig(AppConfig):
    name = "facts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Tasks outside tasks.py, registered when Django (and so the worker) starts, and the
        # receivers of a tenant's deletion (its users' erasure and the erasure journal).
        from facts import bookkeeping, erasure_replay  # noqa: F401
