"""GET /api/v1/health: liveness plus the state of the database, broker and models.

Anyone may ask (a load balancer, a probe), so without a key the answer is the status
and each component's one word. The details (URLs, model names, the SQLite build, error
texts) say how the deployment is built and what fails in it: they go only to a request
with a valid API key, any tenant's, and every URL in them has its credentials masked
(core.redact). docs/api.md, "Health".
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest
from ninja import Router, Schema

from core import engine
from core.checks import loaded_sqlite
from core.redact import mask_text, url_settings
from core.schemas import errors
from facts.auth import api_key_auth

router = Router(tags=["health"])


class HealthOut(Schema):
    """What anyone sees: each component's word."""

    status: str  # ok or degraded
    engine: str  # sqlite or postgresql (DATABASE_URL)
    database: str  # ok or error
    broker: str  # ok, error, eager (no broker: tasks run in the web process) or unknown
    embedder: str  # ok or error (not ready)


class HealthDetailsOut(Schema):
    """What a request with a valid API key sees."""

    status: str  # ok or degraded
    engine: str  # sqlite or postgresql (DATABASE_URL)
    database: str  # ok or "error: <reason>"
    sqlite: str  # the SQLite build the driver loaded, e.g. 'SQLite 3.50.4 (sqlean)'
    broker: str  # ok, "error: <reason>", eager or unknown
    extractor: dict[str, Any]
    embedder: dict[str, Any]
    consent_classifier: dict[str, Any]  # enabled, last_error(_at), last_ok_at (facts/consent_model.py)


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
    if url.startswith("sqlite:"):
        from core import broker  # kombu and SQLAlchemy: only when it is the broker

        return broker.health(url)
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


def component_states() -> dict[str, dict[str, Any]]:
    # Each app reports its own component; imported lazily so health never
    # loads the embedding model just to answer.
    from facts import consent_model
    from facts.extraction.status import extractor_state
    from recall.reports import embedder_health

    return {"extractor": extractor_state(), "embedder": embedder_health(), "consent_classifier": consent_model.state()}


def _word(state: str) -> str:
    return state.partition(":")[0]  # "error: <reason>" -> "error"


def _masked(value: object, urls: list[str]) -> object:
    """`value` with the credentials of every URL in its strings masked, however deep; the URL
    settings (`urls`) are parsed whole, not found by a search that a quote could cut short."""
    if isinstance(value, str):
        return mask_text(value, urls)
    if isinstance(value, dict):
        return {name: _masked(item, urls) for name, item in value.items()}
    if isinstance(value, list | tuple):
        return [_masked(item, urls) for item in value]
    return value


@router.get(
    "/health",
    auth=None,
    # 429: a request that sends a key is counted against its read budget.
    response={200: HealthDetailsOut | HealthOut, **errors(429)},
    summary="Liveness and component state; the details with an API key",
)
def health(request: HttpRequest) -> HealthOut | HealthDetailsOut:
    # auth=None: no key is fine. A key sent is checked, and counted as a read, like any.
    keyed = api_key_auth(request) is not None
    db = database_state()
    broker = broker_state()
    status = "ok" if db == "ok" and not broker.startswith("error") else "degraded"
    if not keyed:
        from recall.reports import embedder_health

        ready = embedder_health()["ready"]
        return HealthOut(
            status=status,
            engine=engine.current().name,
            database=_word(db),
            broker=_word(broker),
            embedder="ok" if ready else "error",
        )
    details = {
        "status": status,
        "engine": engine.current().name,
        "database": db,
        "sqlite": loaded_sqlite(),
        "broker": broker,
        **component_states(),
    }
    urls = url_settings()
    # Whatever the masking leaves, HealthDetailsOut validates field by field.
    masked: dict[str, Any] = {name: _masked(value, urls) for name, value in details.items()}
    return HealthDetailsOut(**masked)
