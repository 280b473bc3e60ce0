"""On PostgreSQL: ANALYZE samples none of the recall index columns that hold a person's words
(terms, text hashes, embeddings), and migration recall 0011 drops what a store made before it had
sampled (recall/engines/postgresql/ddl.py `UNSAMPLED`, docs/deployment.md "What erased means on
PostgreSQL")."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from facts import services
from recall import indexer
from recall import services as recall_services
from tests.facts.dashboard_helpers import memory_user

pytestmark = pytest.mark.django_db(transaction=True)

STAFF = services.Actor("staff", "ines")
WORD_COLUMNS = ("term", "text_hash", "embedding")


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("pg_statistic is PostgreSQL's; SQLite's FTS5 keeps no samples of its terms")


def _sampled() -> list[tuple[str, str]]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tablename, attname FROM pg_stats WHERE tablename LIKE 'recall%%' AND attname = ANY(%s)",
            [list(WORD_COLUMNS)],
        )
        return sorted(cursor.fetchall())


def _migrate(target: str) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([("recall", target)])


def _store_and_analyze(tenant) -> None:
    user = memory_user(tenant, "u")
    texts = ("User lives in Quillborough.", "User keeps bees.", "User drives a green van.")
    facts = [services.fact_store(user=user, text=text, actor=STAFF).fact for text in texts]
    indexer.index_items([f.pk for f in facts], [], vectors="here")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def test_analyze_samples_no_term_hash_or_embedding_of_the_index(alice):
    _store_and_analyze(alice.tenant)

    assert _sampled() == []


def test_the_migration_drops_what_a_store_made_before_it_had_sampled(alice):
    _migrate("0010_embedder_switch")
    try:
        _store_and_analyze(alice.tenant)
        assert _sampled(), "the store before the migration samples its terms"
    finally:
        _migrate("0011_no_samples_of_index_words")

    assert _sampled() == []
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    assert _sampled() == []
    user = memory_user(alice.tenant, "u")
    hits = recall_services.recall(user=user, query="where does the user live", k=3, log=False).items
    assert hits and "Quillborough" in hits[0].fact.text
