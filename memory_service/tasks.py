"""Periodic backups (MEMORY_BACKUP_EVERY_HOURS) and erasure compaction on PostgreSQL
(MEMORY_POSTGRES_COMPACT_SECONDS); both run by Celery beat, docs/deployment.md."""

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


# A pass rewrites every user-data table: far longer than the default task limits at scale.
# Stopping one mid-table only rolls that table's rewrite back; the next pass covers it.
@shared_task(
    name="memory_service.compact_erasures", ignore_result=True, soft_time_limit=6 * 3600, time_limit=6 * 3600 + 60
)
def compact_erasures() -> bool | None:
    from core import engine

    report = engine.current().compact_pass()
    return None if report is None else report.complete
