"""PostgreSQL: the bench's throwaway database (bench/throwaway.py), made on a server for one
run and dropped after it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg

from core.db.postgresql_urls import connect_kwargs, database_config, url_of


@contextmanager
def new_database(server: str, keep: bool) -> Iterator[tuple[str, str]]:
    """A new, empty database on the server at URL `server`: (its URL, its name); dropped
    afterwards, with any connection still open to it, unless `keep`."""
    config = database_config(server)
    connect = connect_kwargs(config)
    name = f"throwaway_{os.urandom(4).hex()}"
    with psycopg.connect(**connect, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url_of(config, name), name
    finally:
        if not keep:
            with psycopg.connect(**connect, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
