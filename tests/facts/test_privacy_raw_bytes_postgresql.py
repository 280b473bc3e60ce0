"""On PostgreSQL: an erased user's text is in no table or index file of the cluster afterwards.

The erase deletes the rows in one transaction and, after commit, runs VACUUM (FULL) over the
user-data tables (memory_service/db/scrub.py), so the rewritten tables hold no dead tuple of
the user. The files are read after a CHECKPOINT (pages sit in shared buffers until then).
The write-ahead log (pg_wal/) is not read: it keeps the rows until its segments are recycled,
which docs/deployment.md ("What erased means on PostgreSQL") states plainly.
"""

from __future__ import annotations

import pytest
from django.db import connection

from facts import privacy, services
from facts.models import MemoryUser, Turn
from recall import indexer
from tests.db_files import postgres_data_files
from tests.facts.dashboard_helpers import seed_everything


def _where(files: dict[str, bytes], needle: bytes) -> list[str]:
    return [name for name, data in files.items() if needle in data]


@pytest.mark.django_db(transaction=True)
def test_an_erased_users_text_leaves_every_table_and_index_file(alice):
    if connection.vendor != "postgresql":
        pytest.skip("reads PostgreSQL's data files; tests/facts/test_privacy_raw_bytes.py reads SQLite's")
    victim_markers = seed_everything(alice.tenant, "victim")
    bystander_markers = seed_everything(alice.tenant, "bystander")
    victim = MemoryUser.objects.get(tenant=alice.tenant, external_id="victim")
    indexer.index_items([], list(Turn.objects.values_list("pk", flat=True)))

    before = postgres_data_files()
    for kind, marker in victim_markers.items():
        assert _where(before, marker.encode()), f"{kind} marker not written before the erase"

    receipt = privacy.user_erase(user=victim, actor=services.Actor("staff", "ines"))
    assert receipt.counts["facts"] >= 4 and receipt.counts.get("episode_rows", 0) == 1

    after = postgres_data_files()
    leaks = {kind: _where(after, m.encode()) for kind, m in victim_markers.items() if _where(after, m.encode())}
    assert leaks == {}, f"erased text still in the data files: {leaks}"
    for kind, marker in bystander_markers.items():
        assert _where(after, marker.encode()), f"the other user's {kind} text is gone too"
