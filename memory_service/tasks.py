"""Periodic backups (MEMORY_BACKUP_EVERY_HOURS; Celery beat, docs/deployment.md)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from memory_service.backup import store


@shared_task(name="memory_service.backup", ignore_result=True)
def backup() -> str:
    folder = store.default_folder()
    store.take(folder)
    store.prune(settings.MEMORY_BACKUP_KEEP)
    return str(folder)
