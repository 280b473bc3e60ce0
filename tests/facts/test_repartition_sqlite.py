"""On SQLite `manage.py repartition` explains that SQLite has no partitions and exits non-zero
(memory_service/management/commands/repartition.py); PostgreSQL's behaviour is in
tests/facts/test_repartition_postgresql.py."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

pytestmark = [pytest.mark.sqlite_only, pytest.mark.django_db]


def test_repartition_on_sqlite_says_it_has_no_partitions_and_fails():
    with pytest.raises(CommandError, match="SQLite has no partitions"):
        call_command("repartition", partitions=16, yes=True)
