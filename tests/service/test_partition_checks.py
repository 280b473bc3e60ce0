"""The warnings of `manage.py check` about PostgreSQL's hash partitions by user
(recall/engines/postgresql/checks.py, W004 and W005), from a store's layout; the same checks on a live
store are in tests/facts/test_repartition_postgresql.py."""

from __future__ import annotations

from core.db.partitioned_tables import Partitioned
from recall.engines.postgresql.checks import partition_count_warnings, partition_size_warnings

MB = 2**20


def _table(name: str, partitions: int, largest_mb: float) -> Partitioned:
    return Partitioned(name, partitions, f"{name}_p3", int(largest_mb * MB), int(largest_mb * MB * partitions))


def test_a_store_with_another_count_than_the_setting_is_named_with_the_command_that_fixes_it():
    (warning,) = partition_count_warnings([_table("recall_fts", 16, 0.1), _table("facts_fact", 64, 0.1)], 64)
    assert warning.id == "memory_service.W004"
    assert "recall_fts 16" in warning.msg and "facts_fact" not in warning.msg
    assert "repartition --partitions 64" in warning.hint
    assert partition_count_warnings([_table("recall_fts", 64, 0.1)], 64) == []


def test_a_slice_above_the_limit_names_a_count_that_brings_every_slice_under_it():
    (warning,) = partition_size_warnings([_table("recall_fts", 64, 7.5), _table("facts_fact", 64, 6.0)], 5.0)
    assert warning.id == "memory_service.W005"
    assert "recall_fts_p3 (7.5 MB" in warning.msg
    assert "MEMORY_POSTGRES_PARTITIONS=128" in warning.hint and "--partitions 128" in warning.hint
    assert partition_size_warnings([_table("recall_fts", 64, 4.9)], 5.0) == []


def test_a_store_beyond_1024_partitions_is_told_that_no_count_is_enough():
    (warning,) = partition_size_warnings([_table("recall_fts", 1024, 50.0)], 5.0)
    assert "even 1,024 partitions would not" in warning.msg
