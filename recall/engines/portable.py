"""The index SQL both engines run as it is, written once (each engine's fts.py and vec.py
take these as their own)."""

from __future__ import annotations

from django.db import connection

from facts.replicas import reader
from recall.tables import FACTS, Tables

# A vector search's check that the embedder switch (recall.models.EmbedderSwitch, one row) still says
# what the caller read: its live slot and model, or, without a row, whether the caller's state is
# the one a store without a row serves (a bool parameter). Both engines read it as a condition.
SWITCH_UNCHANGED = "COALESCE((SELECT live_slot = %s AND live_model = %s FROM recall_embedderswitch WHERE id = 1), %s)"


def switch_params(expect: tuple[str, str, bool] | None) -> tuple[str, list[str | bool]]:
    """The WHERE clause's tail and its parameters for `expect` (None: no check)."""
    if expect is None:
        return "", []
    return f" AND {SWITCH_UNCHANGED}", list(expect)


def delete_user_vectors(user_id: int, t: Tables = FACTS) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {t.vector} WHERE user_id = %s", [user_id])
        return int(cursor.rowcount)


def count_user_vectors(user_id: int, t: Tables = FACTS) -> int:
    with reader().cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {t.vector} WHERE user_id = %s", [user_id])
        return int(cursor.fetchone()[0])


def total_vectors(t: Tables = FACTS) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {t.vector}")
        return int(cursor.fetchone()[0])


def all_vector_ids(t: Tables = FACTS) -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {t.id} FROM {t.vector} ORDER BY {t.id}")
        return [int(row[0]) for row in cursor.fetchall()]


def count_user_documents(user_id: int, t: Tables = FACTS) -> int:
    """The user's indexed documents: the erase counts and BM25's N."""
    with reader().cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {t.doc} WHERE user_id = %s", [user_id])
        return int(cursor.fetchone()[0])


def total_documents(t: Tables = FACTS) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {t.doc}")
        return int(cursor.fetchone()[0])


def all_document_ids(t: Tables = FACTS) -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {t.id} FROM {t.doc} ORDER BY {t.id}")
        return [int(row[0]) for row in cursor.fetchall()]
