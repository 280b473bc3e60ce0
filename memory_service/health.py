"""GET /api/v1/health: liveness plus the state of the database, broker and models."""

from __future__ import annotations

import shutil
from pathlib import Path

from django.conf import settings
from django.db import connection
from ninja import Router, Schema

from memory_service.checks import loaded_sqlite

router = Router(tags=["health"])


class HealthOut(Schema):
    status: str  # ok or degraded
    database: str
    sqlite: str  # the SQLite build the driver loaded, e.g. 'SQLite 3.50.4 (sqlean)'
    broker: str
    extractor: dict
    embedder: dict


def database_state() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return "ok"
    except Exception as exc:
        return f"error: {exc}"


def broker_state() -> str:
    url = settings.CELERY_BROKER_URL
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    if url.startswith("filesystem://"):
        folder = Path(settings.CELERY_BROKER_TRANSPORT_OPTIONS["data_folder_in"])
        return "ok" if folder.is_dir() and shutil.disk_usage(folder).free > 0 else "error: broker folder missing"
    if url.startswith(("redis://", "rediss://")):
        try:
            import redis

            redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1).ping()
            return "ok"
        except Exception as exc:
            return f"error: {exc}"
    return "unknown"


def component_states() -> dict:
    # Each app reports its own component; imported lazily so health never
    # loads the embedding model just to answer.
    from facts.extraction.status import extractor_state
    from recall.reports import embedder_health

    return {"extractor": extractor_state(), "embedder": embedder_health()}


@router.get("/health", auth=None, response=HealthOut, summary="Liveness and component state")
def health(request):
    db = database_state()
    broker = broker_state()
    status = "ok" if db == "ok" and not broker.startswith("error") else "degraded"
    return {"status": status, "database": db, "sqlite": loaded_sqlite(), "broker": broker, **component_states()}
