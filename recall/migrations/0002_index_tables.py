"""The recall index: an FTS5 table over live fact text and a table of vectors.

Why this layout (see docs/measurements.md and docs/recall.md):
- FTS5 terms are namespaced by user ("<user pk>x<token>", see recall/query.py),
  so every posting list belongs to one user and a lexical query never reads
  another user's postings: its cost follows that user's facts only.
  contentless_delete keeps no copy of the text; 'secure-delete' makes a delete
  remove the tokens from the index b-tree at once, so erased text leaves the file.
- Vectors are float32 blobs in a plain table with an index on the user, searched
  by an exact scan of that user's rows with vec_distance_cosine: a vec0
  partition per user costs 15 GB at 1M facts, this about 1.5 GB.
- recall_doc records which user each indexed row belongs to (erase, counts) and
  the text hash it was indexed from (skip unchanged facts on re-sync).
"""

from django.db import migrations

from recall.migrations._engine import OnlyOn

FORWARD = [
    """
    CREATE VIRTUAL TABLE recall_fts USING fts5(
        body, context,
        content='', contentless_delete=1,
        tokenize='porter unicode61 remove_diacritics 2'
    )
    """,
    "INSERT INTO recall_fts(recall_fts, rank) VALUES('secure-delete', 1)",
    "CREATE VIRTUAL TABLE recall_fts_vocab USING fts5vocab(recall_fts, 'row')",
    """
    CREATE TABLE recall_doc (
        fact_id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL,
        text_hash TEXT NOT NULL
    )
    """,
    "CREATE INDEX recall_doc_user ON recall_doc(user_id)",
    """
    CREATE TABLE recall_vector (
        fact_id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL,
        model TEXT NOT NULL,
        text_hash TEXT NOT NULL,
        embedding BLOB NOT NULL
    )
    """,
    "CREATE INDEX recall_vector_user ON recall_vector(user_id)",
]

REVERSE = [
    "DROP TABLE IF EXISTS recall_vector",
    "DROP TABLE IF EXISTS recall_doc",
    "DROP TABLE IF EXISTS recall_fts_vocab",
    "DROP TABLE IF EXISTS recall_fts",
]


class Migration(migrations.Migration):
    dependencies = [("recall", "0001_initial")]

    operations = [OnlyOn("sqlite", migrations.RunSQL(sql=FORWARD, reverse_sql=REVERSE))]
