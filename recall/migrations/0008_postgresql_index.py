"""The recall index on PostgreSQL (recall/engines/postgresql/, docs/recall.md "On PostgreSQL").

The same four tables per side as on SQLite, in the shapes PostgreSQL serves:
- recall_fts / recall_episode_fts: one row per (user, stemmed term, document) with
  the term's weighted frequency (body 1.0, context 0.6, as FTS5's bm25 column
  weights). The primary key starts with the user, so a query reads one user's
  postings only; BM25 is computed in SQL from them.
- recall_doc / recall_episode_doc: owner, indexed text hash and the document's
  length in tokens (BM25's document length).
- recall_vector / recall_episode_vector: pgvector `vector` columns, searched by an
  exact scan of one user's rows (index on user and model), as on SQLite.
On SQLite, 0002-0007 made the FTS5 tables; this migration does nothing there.
"""

from django.db import migrations

from recall.migrations._engine import OnlyOn

FORWARD = ["CREATE EXTENSION IF NOT EXISTS vector"]
REVERSE = []
for fts, doc, vector, id_column in (
    ("recall_fts", "recall_doc", "recall_vector", "fact_id"),
    ("recall_episode_fts", "recall_episode_doc", "recall_episode_vector", "turn_id"),
):
    FORWARD += [
        f"""CREATE TABLE {doc} (
            {id_column} bigint PRIMARY KEY,
            user_id bigint NOT NULL,
            text_hash text NOT NULL,
            length integer NOT NULL DEFAULT 0
        )""",
        f"CREATE INDEX {doc}_user ON {doc}(user_id)",
        f"""CREATE TABLE {fts} (
            user_id bigint NOT NULL,
            term text NOT NULL,
            doc_id bigint NOT NULL,
            tf real NOT NULL,
            PRIMARY KEY (user_id, term, doc_id)
        )""",
        f"CREATE INDEX {fts}_doc ON {fts}(doc_id)",
        f"""CREATE TABLE {vector} (
            {id_column} bigint PRIMARY KEY,
            user_id bigint NOT NULL,
            model text NOT NULL,
            text_hash text NOT NULL,
            embedding vector NOT NULL
        )""",
        f"CREATE INDEX {vector}_user ON {vector}(user_id, model)",
    ]
    REVERSE += [f"DROP TABLE IF EXISTS {vector}", f"DROP TABLE IF EXISTS {fts}", f"DROP TABLE IF EXISTS {doc}"]


class Migration(migrations.Migration):
    dependencies = [("recall", "0007_split_fts5_separators")]

    operations = [OnlyOn("postgresql", migrations.RunSQL(sql=FORWARD, reverse_sql=REVERSE))]
