"""manage.py bench_bm25_neighbours (issue 33, item 17): it measures how other users' data moves a
user's lexical ranking. On PostgreSQL BM25's statistics are the user's own, so the ranking must not
move at all; on either engine ranking the user alone again after the neighbours leave gives the
same ids in the same order (the control that shows the measured changes are the neighbours')."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from bench import locomo, locomo_data
from bench.bm25_neighbours import CONTROL

pytestmark = pytest.mark.django_db
TINY = Path(__file__).parent.parent / "bench" / "data" / "tiny_locomo.json"


def _run(tmp_path, *args) -> dict:
    target = tmp_path / "out.json"
    call_command("bench_bm25_neighbours", "--data", str(TINY), "--json", str(target), *args, stdout=StringIO())
    return json.loads(target.read_text())


def _unmoved(row: dict) -> bool:
    return (
        row["top-10 overlap"] == 1.0
        and row["same top-10 order"] == 1.0
        and row["recall@10 alone"] == row["recall@10 with neighbours"]
    )


def test_the_user_alone_again_ranks_exactly_as_before(tmp_path):
    results = _run(tmp_path, "--times", "3")["results"]
    assert set(results) == {"observations", "turns", CONTROL}
    assert results[CONTROL]["questions"] > 0 and _unmoved(results[CONTROL])


def test_on_postgresql_other_users_data_moves_no_ranking(tmp_path):
    if settings.DATABASE_ENGINE != "postgresql":
        pytest.skip("on SQLite N and the average length are the table's: the measurement is docs/recall.md's")
    results = _run(tmp_path, "--times", "20")["results"]
    assert all(_unmoved(row) for row in results.values()), results


def test_it_refuses_a_store_whose_index_is_not_empty(tmp_path):
    loaded = locomo.load(locomo_data.load_conversations(TINY), "observations", vectors="skip")
    try:
        with pytest.raises(CommandError, match="not empty"):
            _run(tmp_path)
    finally:
        locomo.unload(loaded)


def test_it_refuses_bad_arguments():
    with pytest.raises(CommandError, match="Unknown --neighbours"):
        call_command("bench_bm25_neighbours", "--data", str(TINY), "--neighbours", "strangers")
    with pytest.raises(CommandError, match="positive"):
        call_command("bench_bm25_neighbours", "--data", str(TINY), "--times", "0")
