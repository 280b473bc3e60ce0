from django.apps import AppConfig


class Mem0ApiConfig(AppConfig):
    name = "mem0_api"
    verbose_name = "mem0-compatible API"
