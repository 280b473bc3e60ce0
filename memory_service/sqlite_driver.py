"""Make ``import sqlite3`` resolve to pysqlite3 before Django loads its backend.

The interpreter's own sqlite3 module on our target machines is built without
extension loading, so sqlite-vec cannot be loaded through it. pysqlite3-binary
ships a recent SQLite (with FTS5) that can. Django's SQLite backend does
``from sqlite3 import dbapi2``, so swapping the module in ``sys.modules`` early
is enough; this file is imported first by ``memory_service/__init__.py``.
"""

from __future__ import annotations

import sys


def install() -> None:
    if getattr(sys.modules.get("sqlite3"), "__name__", "").startswith("pysqlite3"):
        return
    import pysqlite3
    import pysqlite3.dbapi2

    sys.modules["sqlite3"] = pysqlite3
    sys.modules["sqlite3.dbapi2"] = pysqlite3.dbapi2
