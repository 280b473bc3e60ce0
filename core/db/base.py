"""Django's SQLite backend, with sqlite-vec loaded and our PRAGMAs on every connection."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db.backends.sqlite3 import base as sqlite_base

from core.db import in_use
from core.db.writers import WriterTurn
from core.private_files import is_file_database, private_database

# Applied to every new connection. WAL lets readers run beside one writer;
# synchronous=NORMAL is durable across application crashes in WAL mode;
# secure_delete overwrites freed pages so erased text leaves the file.
CONNECTION_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA foreign_keys=ON",
    "PRAGMA secure_delete=ON",
)


class DatabaseWrapper(sqlite_base.DatabaseWrapper):
    _writer_turn: WriterTurn | None = None

    def _start_transaction_under_autocommit(self) -> None:
        # Writers queue on a lock file of their own first (core/db/writers.py).
        name = str(self.settings_dict["NAME"])
        if is_file_database(name):
            if self._writer_turn is None:
                self._writer_turn = WriterTurn(name)
            self._writer_turn.take(float(self.settings_dict.get("OPTIONS", {}).get("timeout", 30)))
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]  # private hook, not in django-stubs
        except BaseException:
            self._give_back_turn()
            raise

    def _commit(self) -> None:
        try:
            super()._commit()  # type: ignore[misc]  # private hook, not in django-stubs
        finally:
            self._give_back_turn()

    def _rollback(self) -> None:
        try:
            super()._rollback()  # type: ignore[misc]  # private hook, not in django-stubs
        finally:
            self._give_back_turn()

    def _close(self) -> None:
        try:
            super()._close()  # type: ignore[misc]  # private hook, not in django-stubs
        finally:
            if self._writer_turn is not None:
                self._writer_turn.close()
                self._writer_turn = None

    def _give_back_turn(self) -> None:
        if self._writer_turn is not None:
            self._writer_turn.give_back()

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        if is_file_database(str(conn_params.get("database", ""))):
            private_database(Path(conn_params["database"]))
            in_use.hold(str(conn_params["database"]))
        conn = super().get_new_connection(conn_params)
        load_sqlite_vec(conn)
        busy_ms = int(float(conn_params.get("timeout", 30)) * 1000)
        for pragma in CONNECTION_PRAGMAS:
            conn.execute(pragma)
        conn.execute(f"PRAGMA busy_timeout={busy_ms:d}")
        # Negative cache_size is in KiB. mmap lets SQLite read pages from the OS cache
        # without a read() and a copy each (docs/measurements.md, "Page cache and mmap").
        conn.execute(f"PRAGMA cache_size=-{int(settings.SQLITE_CACHE_MB) * 1024:d}")
        conn.execute(f"PRAGMA mmap_size={int(settings.SQLITE_MMAP_MB) * 2**20:d}")
        return conn


def load_sqlite_vec(conn: Any) -> None:
    try:
        import sqlite_vec
    except ImportError as exc:  # pragma: no cover - install problem
        raise ImproperlyConfigured(
            "sqlite-vec is not installed. Run `make install` (or pip install -r requirements.txt)."
        ) from exc
    if not hasattr(conn, "enable_load_extension"):
        raise ImproperlyConfigured(
            "This SQLite driver cannot load extensions; install sqlean.py "
            "(see requirements.txt) so sqlite-vec can be loaded."
        )
    try:
        conn.enable_load_extension(True)
        sqlite_vec.load(conn)
    except Exception as exc:
        raise ImproperlyConfigured(f"Could not load the sqlite-vec extension: {exc}") from exc
    finally:
        conn.enable_load_extension(False)
