"""A fresh database for a server a test starts, migrated once per test process and copied after.

Every server, worker or command a test starts gets an empty database of its own
(tests/base.py `service_database_url`), and each used to run `manage.py migrate` into it: a
Django process and 60-odd migrations, 7 s on an idle machine and twice that on a loaded CI
one, once per fixture. The first `migrate(env)` of a test process runs the real migrate into a
template; every later one copies that template (a file copy on SQLite, `CREATE DATABASE ...
TEMPLATE` on PostgreSQL), which gives the same tables, rows and migration records.

A template is kept per set of settings that can change what the migrations build (the engine,
the partition count, the embedding model's dimensions): every variable of the child's
environment that the settings read, but the database's own URL and the var folder. A database
that is not empty (an upgrade of an older store) is migrated for real.
"""

from __future__ import annotations

import atexit
import hashlib
import shutil
import tempfile
import threading
from pathlib import Path
from urllib.parse import urlsplit

from tests.integration.stack import manage

_PER_STORE = ("DATABASE_URL", "MEMORY_VAR_DIR")
_SETTINGS_PREFIXES = ("DATABASE_", "MEMORY_", "DJANGO_", "CELERY_", "OPENAI_")
_templates: dict[str, str] = {}
_lock = threading.Lock()


def migrate(env: dict) -> None:
    """`manage.py migrate` into the database of `env["DATABASE_URL"]`, from a template when it is
    empty (docstring above)."""
    url = env["DATABASE_URL"]
    if url.startswith("sqlite:"):
        target = Path(urlsplit(url).path)
        if target.exists():
            manage(["migrate", "--noinput", "-v", "0"], env)
            return
        shutil.copyfile(_template(env, "sqlite"), target)
        return
    name = urlsplit(url).path.lstrip("/")
    if _has_tables(name):
        manage(["migrate", "--noinput", "-v", "0"], env)
        return
    from tests.base import server_connection

    template = _template(env, "postgresql")
    with server_connection() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')


def _template(env: dict, engine: str) -> str:
    key = _settings_key(env, engine)
    with _lock:
        if key not in _templates:
            _templates[key] = _build(env, engine, key)
        return _templates[key]


def _settings_key(env: dict, engine: str) -> str:
    read = sorted((k, v) for k, v in env.items() if k.startswith(_SETTINGS_PREFIXES) and k not in _PER_STORE)
    return hashlib.sha256(repr((engine, read)).encode()).hexdigest()[:12]


def _build(env: dict, engine: str, key: str) -> str:
    folder = Path(tempfile.mkdtemp(prefix=f"migrated-{key}-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    if engine == "sqlite":
        path = folder / "memory.sqlite3"
        manage(
            ["migrate", "--noinput", "-v", "0"],
            {**env, "DATABASE_URL": f"sqlite:///{path}", "MEMORY_VAR_DIR": str(folder)},
        )
        return str(path)
    from tests.base import service_database_url

    url = service_database_url(folder)  # a new database on the run's server
    manage(["migrate", "--noinput", "-v", "0"], {**env, "DATABASE_URL": url, "MEMORY_VAR_DIR": str(folder)})
    return urlsplit(url).path.lstrip("/")


def _has_tables(name: str) -> bool:
    from tests.base import server_connection

    with server_connection(name) as conn:
        return conn.execute("SELECT to_regclass('django_migrations') IS NOT NULL").fetchone()[0]
