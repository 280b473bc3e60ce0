from django.apps import AppConfig


class RecallConfig(AppConfig):
    name = "recall"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Registers the system checks and the app's tasks (in every process, as facts does),
        # and connects the index to facts.signals; hands the embedding models down to the
        # consent classifier (facts, a floor below), which reads messages with a local one,
        # and the storage engine down to core and facts.
        from core import engine
        from facts import consent_model
        from recall import checks, engines, receivers, tasks  # noqa: F401
        from recall.embeddings import embedder_for

        consent_model.use_embedders(embedder_for)
        engine.install(engines.current(), engines.ENGINES.values())
