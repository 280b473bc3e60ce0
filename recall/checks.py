"""System checks: the recall index needs FTS5 and sqlite-vec on every SQLite connection,
and the pgvector extension in a PostgreSQL database."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register
from django.db import connection


def _django_query(sql: str):
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()


# Not tagged "database": these must run at every start-up, not only on `check --database`.
@register()
def check_sqlite_extensions(app_configs=None, **kwargs):
    # A worker machine for the llm/embed queues has no database file; opening
    # one here would create an empty file. Connections still fail loudly
    # (core.db) if the extensions are missing where a database is used.
    if settings.DATABASE_ENGINE != "sqlite":
        return []
    name = str(connection.settings_dict["NAME"])
    if name != ":memory:" and not name.startswith("file:") and not Path(name).exists():
        return []
    return extension_errors(_django_query)


def extension_errors(query: Callable[[str], tuple]) -> list[Error]:
    """Errors for a connection (given as a one-row query function) lacking FTS5 or sqlite-vec."""
    errors = []
    try:
        fts5 = query("SELECT sqlite_compileoption_used('ENABLE_FTS5')")[0]
    except Exception as exc:  # the connection itself may be what fails
        return [Error(f"Could not open the database: {exc}", id="recall.E000")]
    if not fts5:
        errors.append(
            Error(
                "SQLite was built without FTS5; lexical recall cannot work.",
                hint="Install sqlean.py (requirements.txt), which bundles an FTS5 build.",
                id="recall.E001",
            )
        )
    try:
        query("SELECT vec_version()")
    except Exception as exc:
        errors.append(
            Error(
                f"sqlite-vec is not loaded on database connections ({exc}).",
                hint="Install sqlite-vec and use the core.db engine.",
                id="recall.E002",
            )
        )
    return errors


# Tagged "database": it needs the server, which `manage.py check --database default`,
# migrate and the test run reach; a web or worker start does not wait for it.
@register(Tags.database)
def check_pgvector(app_configs=None, databases=None, **kwargs):
    if settings.DATABASE_ENGINE != "postgresql" or not databases:
        return []
    try:
        # Available on the server is enough before migrate: recall 0008 creates the extension.
        found = _django_query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")
    except Exception as exc:
        return [Error(f"Could not open the database: {exc}", id="recall.E000")]
    if found is None:
        return [
            Error(
                "The PostgreSQL server has no pgvector extension; the recall index needs it.",
                hint="Install pgvector on the database server (the package for its PostgreSQL version); "
                'see docs/deployment.md, "Many hosts".',
                id="recall.E003",
            )
        ]
    return []


@register()
def check_facts_through_turns(app_configs=None, **kwargs):
    """Facts can be ranked through their turns only when the turns' keys hold the facts' words."""
    if settings.MEMORY_RECALL_FACTS_THROUGH_TURNS and settings.MEMORY_RECALL_TURN_KEYS != "words+facts":
        return [
            Warning(
                "MEMORY_RECALL_FACTS_THROUGH_TURNS is on but MEMORY_RECALL_TURN_KEYS is not words+facts: "
                "a turn's key does not hold its facts' words, so facts keep their own ranked lists.",
                hint="Set MEMORY_RECALL_TURN_KEYS=words+facts and run `manage.py reindex_embeddings`, "
                "or turn MEMORY_RECALL_FACTS_THROUGH_TURNS off.",
                id="recall.W001",
            )
        ]
    return []
