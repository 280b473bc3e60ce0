from __future__ import annotations

import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_service.settings")

app = Celery("memory_service")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


# SQLite connections must never cross a fork: a child that uses or closes its
# parent's connection can corrupt the database file (its locks belong to the
# parent process, and a close may checkpoint and truncate the WAL). The master
# closes its connections before the pool forks, and a child keeps any it still
# inherited alive but unused, so closing them never runs in the child.
_inherited_connections: list = []


@signals.worker_init.connect(dispatch_uid="memory_service.close_before_fork")
def _close_connections_before_fork(**kwargs) -> None:
    from django.db import connections

    connections.close_all()


@signals.worker_process_init.connect(dispatch_uid="memory_service.drop_inherited_connections")
def _drop_inherited_connections(**kwargs) -> None:
    from django.db import connections

    for conn in connections.all(initialized_only=True):
        if conn.connection is not None:
            _inherited_connections.append(conn.connection)
            conn.connection = None
