from django.apps import AppConfig


class ProfilesConfig(AppConfig):
    name = "profiles"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from profiles import receivers  # noqa: F401  (connects the signal receivers)
