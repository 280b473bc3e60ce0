"""What a store holds, table by table, read with SQLite alone (no Django).

`snapshot` gives each table's columns, row count and a digest of its rows, so a
store before and after an upgrade can be compared without keeping every row in
the fixture. Virtual tables are left out: their rows are their shadow tables'
(recall_fts_content, _data, ...), which are compared like any other table.
"""

from __future__ import annotations

import hashlib
import json
from contextlib import closing
from pathlib import Path

import sqlean

# Tables every migration may add rows to (a new model's content type and
# permissions, the migration's own record): only their old ids are compared.
GROWING = ("django_migrations", "django_content_type", "auth_permission")


def connect(path: Path):
    # No sqlite-vec needed: the vectors are blobs in a plain table (recall/migrations/0002).
    return sqlean.connect(str(path))


def tables(conn) -> list[str]:
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' "
        "AND name NOT LIKE 'sqlite_%' ORDER BY name"
    )
    return [name for (name,) in rows]


def columns(conn, table: str) -> list[str]:
    return [row[1] for row in conn.execute(f'PRAGMA table_info("{table}")')]


def _jsonable(value):
    return value.hex() if isinstance(value, bytes) else value


def digest(conn, table: str, names: list[str], max_id: int | None = None) -> dict:
    """Row count and sha256 of these columns' rows, in a stable order (a rebuilt table may reorder them)."""
    where = f" WHERE id <= {int(max_id)}" if max_id is not None else ""
    selected = ", ".join(f'"{n}"' for n in names)
    rows = sorted(
        json.dumps([_jsonable(v) for v in row]) for row in conn.execute(f'SELECT {selected} FROM "{table}"{where}')
    )
    return {"count": len(rows), "sha256": hashlib.sha256("\n".join(rows).encode()).hexdigest()}


def snapshot(path: Path) -> dict:
    with closing(connect(path)) as conn:
        found = {}
        for table in tables(conn):
            names = columns(conn, table)
            entry = {"columns": names, **digest(conn, table, names)}
            if table in GROWING:
                entry["max_id"] = conn.execute(f'SELECT max(id) FROM "{table}"').fetchone()[0]
            found[table] = entry
        return found


def facts(conn) -> list[list]:
    """The facts as a person would check them: id, text, status, validity, what replaced them."""
    return [
        list(row)
        for row in conn.execute(
            "SELECT f.uuid, f.text, f.status, f.valid_from, f.valid_to, s.uuid FROM facts_fact f "
            "LEFT JOIN facts_fact s ON s.id = f.superseded_by_id ORDER BY f.id"
        )
    ]


def history(conn) -> list[list]:
    return [
        list(row) for row in conn.execute("SELECT fact_uuid, action, created_at FROM facts_facthistory ORDER BY id")
    ]
