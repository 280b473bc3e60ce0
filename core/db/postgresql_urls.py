"""One reading of a postgresql:// URL for every place that parses or writes one: the settings,
move_store's target, the throwaway bench databases and the tests' databases.

A server reached through a Unix socket is written `postgresql://user@/name?host=/socket/folder`;
django-environ leaves that folder among the OPTIONS, where Django and psycopg expect it as HOST.
"""

from __future__ import annotations

from typing import Any

import environ


def with_socket_host(config: dict[str, Any]) -> dict[str, Any]:
    """Django database settings with a `?host=` socket folder moved into HOST (in place)."""
    options = config.get("OPTIONS") or {}
    if not config.get("HOST") and "host" in options:
        config["HOST"] = options.pop("host")
    return config


def database_config(url: str) -> dict[str, Any]:
    """Django database settings for a URL."""
    return with_socket_host(environ.Env.db_url_config(url))


def connect_kwargs(config: dict[str, Any], name: str | None = None) -> dict[str, Any]:
    """psycopg.connect's arguments for Django database settings (another database with `name`)."""
    kwargs = {"dbname": name or config["NAME"], "user": config["USER"], "password": config["PASSWORD"]}
    kwargs["host"] = config.get("HOST") or ""
    if config.get("PORT"):
        kwargs["port"] = config["PORT"]
    return kwargs


def url_of(config: dict[str, Any], name: str | None = None) -> str:
    """The URL of the database settings describe (or of database `name` on the same server)."""
    credentials = f"{config['USER']}:{config['PASSWORD'] or ''}"
    host = config.get("HOST") or ""
    if host.startswith("/"):  # a socket folder
        return f"postgresql://{credentials}@/{name or config['NAME']}?host={host}"
    return f"postgresql://{credentials}@{host}:{config.get('PORT') or 5432}/{name or config['NAME']}"
