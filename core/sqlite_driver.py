"""Make ``import sqlite3`` resolve to sqlean before Django loads its backend.

The interpreter's own sqlite3 module on our target machines is built without
extension loading, so sqlite-vec cannot be loaded through it. The sqlean.py
wheel bundles its own SQLite (3.50.4, with FTS5 and extension loading) behind
the standard sqlite3 API. Django's SQLite backend does
``from sqlite3 import dbapi2``, so swapping the module in ``sys.modules`` early
is enough; this file is imported first by ``memory_service/__init__.py``.

Why not pysqlite3-binary: its 0.5.4.post2 wheel bundles SQLite 3.51.1, and
SQLite 3.51.0-3.51.1 can deadlock two threads in the unix VFS when one opens a
WAL connection while another closes one (fixed in 3.51.2). ``KNOWN_BAD`` lists
such builds; the system check ``memory_service.E001`` refuses to start on them.
"""

from __future__ import annotations

import sys

DRIVER = "sqlean"

# Inclusive (first, last) SQLite versions that must not serve this application.
KNOWN_BAD = (
    ((3, 51, 0), (3, 51, 1), "a lock-order inversion in the unix VFS deadlocks open/close of WAL connections"),
)


def install() -> None:
    if getattr(sys.modules.get("sqlite3"), "__name__", "") == DRIVER:
        return
    import sqlean
    import sqlean.dbapi2

    # sqlean can register its own bundled extensions (file I/O among them) on
    # every connection when SQLEAN_ENABLE* variables ask for it; we use none.
    sqlean.extensions.disable_all()
    sys.modules["sqlite3"] = sqlean
    sys.modules["sqlite3.dbapi2"] = sqlean.dbapi2


def known_problem(version: tuple[int, ...]) -> str | None:
    """Why this SQLite version must not run the service, or None when it may."""
    for first, last, reason in KNOWN_BAD:
        if first <= tuple(version[:3]) <= last:
            return reason
    return None
