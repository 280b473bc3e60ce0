"""A store written by the first release (fb8a619) upgrades to this code and answers as it did.

The store and that release's answers are fixtures (data/first_release.*), made by
build_first_release_store.py from the release's own code. The test runs the
upgrade an operator runs (docs/deployment.md, "Upgrading"): `migrate`, then
`rebuild_recall_index`, each in a process of its own on a copy of the store.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from tests.integration.stack import ROOT, clean_env, manage
from tests.upgrade import store_rows

pytestmark = [pytest.mark.sqlite_only, pytest.mark.slow]

DATA = Path(__file__).resolve().parent / "data"
FIXTURE = json.loads((DATA / "first_release.json").read_text())


def _migrated_copy(tmp: Path) -> tuple[Path, dict]:
    """A copy of the fixture store migrated by this code, and the environment that reaches it."""
    store = tmp / "memory.sqlite3"
    shutil.copyfile(DATA / "first_release.sqlite3", store)
    env = clean_env(DATABASE_URL=f"sqlite:///{store}", MEMORY_VAR_DIR=str(tmp))
    manage(["migrate", "--noinput", "-v", "0"], env)
    return store, env


@pytest.fixture(scope="module")
def upgraded(tmp_path_factory):
    store, env = _migrated_copy(tmp_path_factory.mktemp("upgrade"))
    # Read before any recall: each recall adds a row to recall_recalllog.
    return store, env, store_rows.snapshot(store)


def _ask(store: Path, env: dict) -> list[dict]:
    questions = store.parent / "questions.json"
    questions.write_text(json.dumps({"keys": FIXTURE["keys"], "questions": FIXTURE["questions"]}))
    script = Path(__file__).resolve().parent / "ask_recalls.py"
    out = subprocess.run(
        [sys.executable, str(script), str(questions)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def _ranked(answer: dict) -> tuple[int, list[tuple[str, str]]]:
    return answer["status"], [(hit["id"], hit["text"]) for hit in answer["hits"]]


def _ranks(answer: dict) -> list[dict]:
    """Which list found each hit and at what place (scores move with the index's statistics)."""
    return [
        {k: v for k, v in hit["signals"].items() if k.endswith("_rank") or k == "supplement"} for hit in answer["hits"]
    ]


def test_it_keeps_every_row_of_every_table(upgraded):
    store, _, tables = upgraded
    with closing(store_rows.connect(store)) as conn:
        for table, old in FIXTURE["tables"].items():
            assert table in tables, f"{table} is gone"
            assert set(old["columns"]) <= set(tables[table]["columns"]), f"{table} lost columns"
            now = store_rows.digest(conn, table, old["columns"], old.get("max_id"))
            assert now == {"count": old["count"], "sha256": old["sha256"]}, f"{table} changed"


def test_it_keeps_facts_their_validity_and_history(upgraded):
    store, _, _ = upgraded
    with closing(store_rows.connect(store)) as conn:
        assert store_rows.facts(conn) == FIXTURE["facts"]
        assert store_rows.history(conn) == FIXTURE["history"]
    statuses = {row[2] for row in FIXTURE["facts"]}
    assert statuses == {"active", "superseded", "expired", "pending_confirmation", "rejected"}


def test_it_answers_the_same_recalls_right_after_migrate(upgraded):
    store, env, _ = upgraded
    answers = _ask(store, env)
    assert [_ranked(a) for a in answers] == [_ranked(a) for a in FIXTURE["answers"]]
    assert [_ranks(a) for a in answers] == [_ranks(a) for a in FIXTURE["answers"]]


def test_rebuild_recall_index_drops_what_the_first_release_left_and_answers_the_same(tmp_path):
    store, env = _migrated_copy(tmp_path)
    manage(["rebuild_recall_index"], env)
    with closing(store_rows.connect(store)) as conn:
        live = {i for (i,) in conn.execute("SELECT id FROM facts_fact WHERE status = 'active' AND valid_to IS NULL")}
        for table, column in (("recall_doc", "fact_id"), ("recall_vector", "fact_id"), ("recall_fts_content", "id")):
            assert {i for (i,) in conn.execute(f"SELECT {column} FROM {table}")} == live, table
        # The first release's forget by key kept these facts' words in the index (facts 'hobby', 'book').
        assert conn.execute(
            "SELECT count(*) FROM recall_fts_content WHERE c0 LIKE '%cello%' OR c0 LIKE '%dune%'"
        ).fetchone() == (0,)
        turns = conn.execute("SELECT count(*) FROM facts_turn").fetchone()[0]
        assert conn.execute("SELECT count(*) FROM recall_episode_doc").fetchone()[0] == turns
    answers = _ask(store, env)
    assert [_ranked(a) for a in answers] == [_ranked(a) for a in FIXTURE["answers"]]
