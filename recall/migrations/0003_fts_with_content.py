"""Re-create recall_fts as an FTS5 table that keeps its own content.

0002 made it contentless (contentless_delete=1). Such a table only tombstones a
deleted row: the erased tokens stay in the index segments until a merge, so an
erased user's words could survive in the file. A table with content lets
'secure-delete' remove a row's tokens from the index b-tree at once
(tests/recall/test_secure_delete.py reads the raw bytes). The stored content is
the user-namespaced token string, deleted with the row (PRAGMA secure_delete).

Existing live facts are re-indexed here; recall_doc hashes are cleared so the
next sync or `rebuild_recall_index` rewrites every row from the current code.
"""

from django.db import migrations

from recall.migrations._engine import OnlyOn

from recall.query import indexed_text

CREATE = """
    CREATE VIRTUAL TABLE recall_fts USING fts5(
        body, context,
        tokenize='porter unicode61 remove_diacritics 2'
    )
"""


def reindex_live_facts(apps, schema_editor):
    Fact = apps.get_model("facts", "Fact")
    FactEntity = apps.get_model("facts", "FactEntity")
    names: dict[int, list[str]] = {}
    for fact_id, name in FactEntity.objects.values_list("fact_id", "entity__display_name"):
        names.setdefault(fact_id, []).append(name)
    live = Fact.objects.filter(status="active", valid_to__isnull=True)
    rows = []
    for fact in live.only("id", "user_id", "text", "key", "source_excerpt").iterator(chunk_size=2000):
        key_words = fact.key.replace("_", " ").replace(".", " ").replace("-", " ") if fact.key else ""
        body = " ".join(p for p in (fact.text, key_words, " ".join(names.get(fact.id, []))) if p)
        rows.append((fact.id, indexed_text(fact.user_id, body), indexed_text(fact.user_id, fact.source_excerpt or "")))
    with schema_editor.connection.cursor() as cursor:
        cursor.executemany("INSERT INTO recall_fts(rowid, body, context) VALUES (%s, %s, %s)", rows)
        cursor.execute("DELETE FROM recall_doc")
        cursor.executemany(
            "INSERT INTO recall_doc(fact_id, user_id, text_hash) VALUES (%s, %s, '')",
            [(fact_id, user_id) for fact_id, user_id in live.values_list("id", "user_id")],
        )


class Migration(migrations.Migration):
    dependencies = [("recall", "0002_index_tables"), ("facts", "0001_initial")]

    operations = [
        OnlyOn(
            "sqlite",
            migrations.RunSQL(
                sql=[
                    "DROP TABLE IF EXISTS recall_fts_vocab",
                    "DROP TABLE IF EXISTS recall_fts",
                    CREATE,
                    "INSERT INTO recall_fts(recall_fts, rank) VALUES('secure-delete', 1)",
                    "CREATE VIRTUAL TABLE recall_fts_vocab USING fts5vocab(recall_fts, 'row')",
                ],
                reverse_sql=migrations.RunSQL.noop,
            ),
        ),
        OnlyOn("sqlite", migrations.RunPython(reindex_live_facts, migrations.RunPython.noop)),
    ]
