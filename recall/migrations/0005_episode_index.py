"""The episode index: sibling tables of the facts' index (docs/design.md §10).

An episode is one processed turn of a user (its words and the exchange around
it). Its rows live beside the facts' in tables of the same layout, keyed by the
Turn pk: recall_episode_fts (FTS5 with content and secure-delete, as 0003 made
recall_fts), recall_episode_doc (owner and indexed text hash) and
recall_episode_vector (float32 blobs, exact per-user scan). Separate tables
keep a facts-only recall reading the same rows and BM25 statistics as before.
Existing turns are indexed by `rebuild_recall_index` / `reindex_embeddings`.
"""

from django.db import migrations

from recall.migrations._engine import OnlyOn

FORWARD = [
    """
    CREATE VIRTUAL TABLE recall_episode_fts USING fts5(
        body, context,
        tokenize='porter unicode61 remove_diacritics 2'
    )
    """,
    "INSERT INTO recall_episode_fts(recall_episode_fts, rank) VALUES('secure-delete', 1)",
    """
    CREATE TABLE recall_episode_doc (
        turn_id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL,
        text_hash TEXT NOT NULL
    )
    """,
    "CREATE INDEX recall_episode_doc_user ON recall_episode_doc(user_id)",
    """
    CREATE TABLE recall_episode_vector (
        turn_id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL,
        model TEXT NOT NULL,
        text_hash TEXT NOT NULL,
        embedding BLOB NOT NULL
    )
    """,
    "CREATE INDEX recall_episode_vector_user ON recall_episode_vector(user_id)",
]

REVERSE = [
    "DROP TABLE IF EXISTS recall_episode_vector",
    "DROP TABLE IF EXISTS recall_episode_doc",
    "DROP TABLE IF EXISTS recall_episode_fts",
]


class Migration(migrations.Migration):
    dependencies = [("recall", "0004_embedder_report")]

    operations = [OnlyOn("sqlite", migrations.RunSQL(sql=FORWARD, reverse_sql=REVERSE))]
