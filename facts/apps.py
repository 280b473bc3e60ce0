from django.apps import AppConfig


class FactsConfig(AppConfig):
    name = "facts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The app's tasks (tasks.py, which names the extraction chain's too, and those outside
        # it), registered when Django starts in every process, not only where Celery's lazy
        # discovery runs (a worker); and the receivers of a tenant's deletion (its users'
        # erasure and the erasure journal).
        from facts import bookkeeping, erasure_replay, tasks  # noqa: F401
