"""System checks: the storage engine's own (recall/engines/<engine>/checks.py: FTS5 and
sqlite-vec on SQLite; pgvector, client programs, connections and partitions on PostgreSQL),
and the recall settings'."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Tags, Warning, register

from recall import engines


# Not tagged "database": these must run at every start-up, not only on `check --database`.
@register()
def check_engine(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    return engines.current().startup_checks()


# Tagged "database": it needs the server, which `manage.py check --database default`,
# migrate and the test run reach; a web or worker start does not wait for it.
@register(Tags.database)
def check_engine_database(app_configs: Any = None, databases: Any = None, **kwargs: Any) -> list[CheckMessage]:
    return engines.current().database_checks() if databases else []


@register()
def check_facts_through_turns(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
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
