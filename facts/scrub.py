"""After an erasure commits: make the database and broker files hold no trace of what was deleted.

How the erased rows' bytes leave the store's files is the engine's (core/engine.py, `Engine`):
SQLite checkpoints its WAL after commit (recall/engines/sqlite/scrub.py); PostgreSQL notes
the erasure inside the erasing transaction and a background pass rewrites the tables
(recall/engines/postgresql/scrub.py and compactor.py; docs/deployment.md, "What erased
means on PostgreSQL").
Every forget and erase, through every door, calls `scrub_after_commit`
(docs/design.md §3, §8); an erase also drops the messages still queued for the
user from the embedded broker.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.conf import settings
from django.db import transaction

from core import engine

logger = logging.getLogger(__name__)


def user_data_tables() -> set[str]:
    """The tables of the apps that hold user data, and the recall index's raw tables."""
    from django.apps import apps

    names = {m._meta.db_table for label in USER_DATA_APPS for m in apps.get_app_config(label).get_models()}
    return names | RECALL_INDEX_TABLES


USER_DATA_APPS = ("facts", "recall", "profiles", "importer", "webhooks")
# vector_b: the second vector table of a live model switch (recall/switch.py).
RECALL_INDEX_TABLES = {
    f"recall_{side}{part}" for side in ("", "episode_") for part in ("fts", "doc", "vector", "vector_b")
}


def scrub_after_commit(*, erased_user: int | None = None, users: Iterable[int] = ()) -> None:
    """Once the current transaction commits (at once outside one): the engine's scrub (SQLite
    checkpoints its WAL) and, with the embedded broker, drop the erased user's queued messages
    and checkpoint its WAL.
    The engine notes the erasure now, inside the transaction (`users`: whose rows a forget
    deleted), and removes what it can after the commit."""
    engine.current().note_erasure([erased_user] if erased_user is not None else users)
    transaction.on_commit(lambda: _scrub(erased_user))


def _scrub(erased_user: int | None) -> None:
    engine.current().after_erasure()
    url = settings.CELERY_BROKER_URL
    if not url.startswith("sqlite:"):
        # Redis keeps messages in memory until a worker takes them (docs/design.md §8).
        return
    from core import broker

    try:
        if erased_user is not None:
            broker.drop_user_messages(url, erased_user)
        else:
            broker.checkpoint(url)
    except Exception:
        # The erase or forget has committed; the broker's copy goes at its next checkpoint.
        logger.exception("Could not scrub the embedded broker after an erasure; it completes later.")
