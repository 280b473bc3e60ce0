"""Rewrite index rows holding a code point FTS5 reads as a separator.

Before recall.query.FTS5_SEPARATORS, a text could carry such a code point
inside a word and so plant a token in another user's namespace (docs/recall.md,
"Tokens and namespaces"). Only rows holding one of those code points are
rewritten: each stored token loses its owner's prefix and the words are indexed
again under that owner, split where FTS5 splits them.
"""

from django.db import migrations

from recall.migrations._engine import OnlyOn
from recall.query import FTS5_SEPARATORS, indexed_text
from recall.tables import EPISODES, FACTS


def _owner_words(user_id: int, stored: str) -> str:
    prefix = f"{user_id}x"
    return " ".join(token.removeprefix(prefix) for token in (stored or "").split())


def _rewrite(cursor, t) -> None:
    cursor.execute(f"SELECT f.rowid, d.user_id, f.body, f.context FROM {t.fts} f JOIN {t.doc} d ON d.{t.id} = f.rowid")
    planted = [
        (rowid, user_id, body, context)
        for rowid, user_id, body, context in cursor.fetchall()
        if any(ch in FTS5_SEPARATORS for ch in (body or "") + (context or ""))
    ]
    for rowid, user_id, body, context in planted:
        cursor.execute(f"DELETE FROM {t.fts} WHERE rowid = %s", [rowid])
        cursor.execute(
            f"INSERT INTO {t.fts}(rowid, body, context) VALUES (%s, %s, %s)",
            [
                rowid,
                indexed_text(user_id, _owner_words(user_id, body)),
                indexed_text(user_id, _owner_words(user_id, context)),
            ],
        )


def split_separators(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        for t in (FACTS, EPISODES):
            _rewrite(cursor, t)


class Migration(migrations.Migration):
    dependencies = [("recall", "0006_index_outbox")]

    operations = [OnlyOn("sqlite", migrations.RunPython(split_separators, migrations.RunPython.noop))]
