"""What one turn costs the database, stage by stage, on both engines (issue 36; docs/measurements.md
§20): POST /turns, its extraction by the scripted model (the real openai client), the apply, and the
index write, run inline (eager Celery) as a `db` worker and an `embed` worker would run them.

A statement is a round trip to PostgreSQL; a transaction is a commit (each one a WAL flush there,
the write lock on SQLite). The bounds are the figures measured when they were set, so a change
that adds statements to a turn fails here (`-s` prints the figures).
"""

from __future__ import annotations

import contextlib
import os
from collections import Counter

import pytest
from django.db import connection

from facts.extraction import chain
from profiles import tasks as profile_tasks
from recall import indexer, reports
from recall.reports import ReportPace
from tests.facts.extraction.conftest import add
from tests.fake_llm import FakeLLM

pytestmark = pytest.mark.django_db(transaction=True)

# A turn like LoCoMo's: two facts, each naming an entity, and an edge between the entities.
REPLIES = [
    FakeLLM.empty_reply(
        add=[
            add(
                f"User's sister Eva{n} moved to Porto{n}.", f"sister_{n}_city", "relationship", [f"Eva{n}", f"Porto{n}"]
            ),
            add(f"User runs along the river{n} on Sundays.", f"sunday_{n}_habit", "habit", [f"River{n}"]),
        ],
        edges=[{"src": f"Eva{n}", "relation": "lives in", "dst": f"Porto{n}"}],
    )
    for n in range(4)
]
TURNS = 3  # measured after a first turn that creates the person and the session's cursor

# Per turn, as measured when set (2026-11-28, after the cuts of issue 36; before them SQLite 119
# statements, 23 commits, 5 savepoints; PostgreSQL 112, 22, 5; then 92 and 85, and after the cheaper
# `db` work 87 and 81): docs/measurements.md §20. SQLite's count has a BEGIN per transaction; a
# commit is an atomic block's or an autocommit statement's.
MAX_STATEMENTS = {"sqlite": 87, "postgresql": 81}
MAX_COMMITS = {"sqlite": 21, "postgresql": 20}
MAX_SAVEPOINTS = 2


class Stages:
    """Counts statements and commits by the stage of the turn that ran them (the innermost)."""

    def __init__(self):
        self.stack = ["post"]
        self.statements: Counter[str] = Counter()
        self.commits: Counter[str] = Counter()
        self.savepoints: Counter[str] = Counter()
        self.sql: list[tuple[str, str]] = []

    def wrap(self, name, fn):
        def staged(*args, **kwargs):
            self.stack.append(name)
            try:
                return fn(*args, **kwargs)
            finally:
                self.stack.pop()

        return staged

    def statement(self, execute, sql, params, many, context):
        stage = self.stack[-1]
        if sql.startswith(("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")):
            self.savepoints[stage] += sql.startswith("SAVEPOINT")
        else:
            self.statements[stage] += 1
            self.sql.append((stage, sql))
        if not connection.in_atomic_block and not sql.startswith("BEGIN"):
            self.commits[stage] += 1  # autocommit: the statement is its own transaction
        return execute(sql, params, many, context)


@pytest.fixture
def stages(monkeypatch):
    seen = Stages()
    monkeypatch.setattr(chain, "prepare", seen.wrap("prepare", chain.prepare))
    monkeypatch.setattr(chain, "apply", seen.wrap("apply", chain.apply))
    monkeypatch.setattr(indexer, "index_items", seen.wrap("index", indexer.index_items))
    monkeypatch.setattr(profile_tasks, "project_after_turns", seen.wrap("profile", profile_tasks.project_after_turns))
    # The indexer tells health that the embedder works once a minute (recall/reports.py
    # `report_embedder_here`): the first turn's index reports, the measured ones do not, however long
    # ago an earlier test of this process reported or however slowly this one runs.
    monkeypatch.setattr(reports, "_written_here", ReportPace(ok_every=3600))
    commit = connection.commit

    def counted_commit():
        seen.commits[seen.stack[-1]] += 1
        commit()

    monkeypatch.setattr(connection, "commit", counted_commit)
    return seen


def _post(api, fake_llm, n: int) -> None:
    fake_llm.script(FakeLLM.json(REPLIES[n]))
    body = {"session_id": "s1", "turn_id": f"t{n}", "user_input": f"My sister Eva{n} moved to Porto{n}; I run."}
    assert api.post("/users/u1/turns", body).status_code == 202


@contextlib.contextmanager
def _counting(stages: Stages):
    with connection.execute_wrapper(stages.statement):
        yield


def test_a_turn_costs_at_most_the_statements_and_commits_measured(api, fake_llm, stages, settings):
    settings.MEMORY_PROFILE_EVERY_TURNS = 1000  # a projection is its own task, measured elsewhere
    settings.MEMORY_RECALL_TURN_KEYS = "words+facts"  # a turn's entry holds its facts: more to write
    _post(api, fake_llm, 0)
    for stage in ("post", "prepare", "apply", "index", "profile"):
        stages.statements[stage] = stages.commits[stage] = stages.savepoints[stage] = 0
    with _counting(stages):
        for n in range(1, 1 + TURNS):
            _post(api, fake_llm, n)
    vendor = connection.vendor
    per_turn = sum(stages.statements.values()) / TURNS
    commits = sum(stages.commits.values()) / TURNS
    print(f"\n{vendor}: {per_turn:.1f} statements, {commits:.1f} commits per turn")
    for stage in ("post", "prepare", "apply", "index", "profile"):
        print(
            f"  {stage:8} {stages.statements[stage] / TURNS:5.1f} statements "
            f"{stages.commits[stage] / TURNS:4.1f} commits {stages.savepoints[stage] / TURNS:4.1f} savepoints"
        )
    if os.environ.get("TURN_SQL"):  # every statement, with its stage
        for stage, sql in stages.sql:
            print(f"{stage:8} {sql[:300]}")
    assert per_turn <= MAX_STATEMENTS[vendor]
    assert commits <= MAX_COMMITS[vendor]
    assert sum(stages.savepoints.values()) / TURNS <= MAX_SAVEPOINTS
