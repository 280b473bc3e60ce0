from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "webhooks"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Webhooks"

    def ready(self) -> None:
        # The receivers that write the outbox inside the transaction of each change.
        from webhooks import events  # noqa: F401
