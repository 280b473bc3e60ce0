"""PostgreSQL: a delete leaves dead tuples in the table and index pages, and a plain VACUUM
leaves their bytes in the freed space; only a rewrite removes them, and a rewrite locks the
table. So the request rewrites nothing: it leaves a PendingCompaction row in its own
transaction, and the background pass of recall/engines/postgresql/compactor.py rewrites each
table once for every erasure before it (MEMORY_POSTGRES_ERASE_VACUUM=full, the default; plain
prunes only; off leaves it to autovacuum). The WAL keeps its copy until its segments are
recycled (docs/deployment.md, "What erased means on PostgreSQL").
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings


def note_erasure(users: Iterable[int]) -> None:
    """Leave work for the compaction pass, in the erasing transaction (or at once outside
    one), so a crash after commit cannot lose it. An INSERT into a table of its own: no lock
    another tenant's request waits for. Naming the users whose rows went lets the pass
    rewrite only their partitions; with none named it rewrites every partition."""
    if settings.MEMORY_POSTGRES_ERASE_VACUUM == "off":
        return
    from facts.models import PendingCompaction

    named = sorted(set(users))
    PendingCompaction.objects.bulk_create([PendingCompaction(user_pk=pk) for pk in named] or [PendingCompaction()])
