"""The query tokenizer and FTS5's unicode61 agree on what a word is, so no text
can write a token into another user's namespace."""

from __future__ import annotations

import pytest
from django.db import connection

from recall.query import indexed_text, words

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite_only]

PLANTING_USER = 7


def _code_points_python_keeps_in_words() -> list[str]:
    chars = []
    for code in range(0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        if words(f"a{chr(code)}b") == [f"a{chr(code)}b".casefold()]:
            chars.append(chr(code))
    return chars


def _tokens_fts5_makes(texts: list[str]) -> dict[int, list[str]]:
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE VIRTUAL TABLE temp.agreement USING fts5(body, tokenize='porter unicode61 remove_diacritics 2')"
        )
        cursor.execute("CREATE VIRTUAL TABLE temp.agreement_terms USING fts5vocab(temp, agreement, instance)")
        try:
            cursor.executemany("INSERT INTO temp.agreement(rowid, body) VALUES (%s, %s)", list(enumerate(texts)))
            cursor.execute("SELECT doc, term FROM temp.agreement_terms")
            tokens: dict[int, list[str]] = {}
            for doc, term in cursor.fetchall():
                tokens.setdefault(doc, []).append(term)
            return tokens
        finally:
            cursor.execute("DROP TABLE temp.agreement_terms")
            cursor.execute("DROP TABLE temp.agreement")


def test_no_code_point_lets_a_text_write_outside_its_users_namespace():
    chars = _code_points_python_keeps_in_words()
    texts = [indexed_text(PLANTING_USER, f"zz{ch}8xpassport") for ch in chars]
    tokens = _tokens_fts5_makes(texts)
    escaped = {
        f"U+{ord(chars[doc]):04X}": terms
        for doc, terms in tokens.items()
        if any(not term.startswith(f"{PLANTING_USER}x") for term in terms)
    }
    assert escaped == {}


def test_the_separators_fts5_knows_split_query_words_too():
    assert words("zz\u19b08xpassport") == ["zz", "8xpassport"]
    assert indexed_text(7, "zz\u1cf2word") == "7xzz 7xword"


def test_the_migration_rewrites_a_planted_row_into_its_owners_namespace():
    from importlib import import_module

    migration = import_module("recall.migrations.0007_split_fts5_separators")
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO recall_doc(fact_id, user_id, text_hash) VALUES (990001, 7, 'h')")
        cursor.execute(
            "INSERT INTO recall_fts(rowid, body, context) VALUES (990001, %s, '')", ["7xzz\u19b08xpassport 7xkeep"]
        )

        class Editor:
            connection = connection

        migration.split_separators(None, Editor())
        cursor.execute("SELECT body FROM recall_fts WHERE rowid = 990001")
        assert cursor.fetchone()[0] == "7xzz 7x8xpassport 7xkeep"
