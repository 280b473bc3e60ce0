from __future__ import annotations

from pathlib import Path

import pytest
from django.db import connection, transaction

from recall import fts, switch, vec
from tests.db_files import file_bytes

TOKEN = "qwzrtplumbicorn"


def _file_bytes() -> bytes:
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    name = Path(connection.settings_dict["NAME"])
    wal = Path(f"{name}-wal")
    return file_bytes(name) + file_bytes(wal)


@pytest.mark.sqlite_only
@pytest.mark.django_db(transaction=True)
def test_deleted_index_rows_leave_no_token_in_the_database_file():
    with transaction.atomic():
        fts.upsert([(987_654, 424_242, "h", f"User named the boat {TOKEN}.", f"context {TOKEN}")])
        # Written under the model recall serves: a vector of any other model is not kept.
        vec.upsert([(987_654, 424_242, switch.state().live_model, "h", (TOKEN.encode() * 100)[:1536])])
    assert TOKEN.encode() in _file_bytes()  # the check can see the token while it is indexed

    with transaction.atomic():
        assert fts.delete_user(424_242) == 1 and vec.delete_user(424_242) == 1
    assert TOKEN.encode() not in _file_bytes()
    assert fts.search(424_242, [TOKEN], 5) == []
