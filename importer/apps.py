from django.apps import AppConfig


class ImporterConfig(AppConfig):
    name = "importer"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Conversation import"
