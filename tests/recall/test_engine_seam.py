"""The storage-engine seam (core/engine.py, recall/engines/): every engine defines every
function of the interface with the interface's parameter names, so a caller may pass any
argument by name on either engine (before, vec.delete took `fact_ids` on SQLite and `ids`
on PostgreSQL), and the engine in use is the one the settings name."""

from __future__ import annotations

import inspect
from pathlib import Path
from types import ModuleType

import pytest
from django.conf import settings
from django.db import connection

from core import engine
from core.engine import Engine
from recall import engines
from recall.engines.index import LexicalIndex, VectorIndex
from recall.engines.postgresql import fts as postgresql_fts
from recall.engines.postgresql import vec as postgresql_vec
from recall.engines.sqlite import fts as sqlite_fts
from recall.engines.sqlite import vec as sqlite_vec


def _members(protocol: type) -> dict[str, list[str]]:
    """Each function of a Protocol and its parameter names (less self)."""
    return {
        name: list(inspect.signature(member).parameters)[1:]
        for name, member in vars(protocol).items()
        if inspect.isfunction(member) and not name.startswith("_")
    }


@pytest.mark.parametrize(
    ("protocol", "module"),
    [
        (LexicalIndex, sqlite_fts),
        (LexicalIndex, postgresql_fts),
        (VectorIndex, sqlite_vec),
        (VectorIndex, postgresql_vec),
    ],
    ids=["sqlite fts", "postgresql fts", "sqlite vec", "postgresql vec"],
)
def test_each_engines_index_module_has_every_function_with_the_interfaces_parameter_names(
    protocol: type, module: ModuleType
) -> None:
    found = {name: list(inspect.signature(getattr(module, name)).parameters) for name in _members(protocol)}

    assert found == _members(protocol)


@pytest.mark.parametrize("name", sorted(engines.ENGINES))
def test_each_engine_has_every_method_of_the_interface_with_its_parameter_names(name: str) -> None:
    implementation = engines.ENGINES[name]
    found = {method: list(inspect.signature(getattr(implementation, method)).parameters) for method in _members(Engine)}

    assert found == _members(Engine)
    assert implementation.name == name


def test_the_engine_in_use_is_the_one_the_settings_name_and_core_reaches_it() -> None:
    assert engines.current().name == settings.DATABASE_ENGINE
    assert engine.current() is engines.current()


@pytest.mark.django_db
def test_the_store_lies_in_the_throwaway_folder_or_database_it_was_made_in(tmp_path: Path) -> None:
    here = engines.current()
    name = str(connection.settings_dict["NAME"])

    if here.embedded:
        assert here.store_lies_in(Path(name).parent, "")
    else:
        assert here.store_lies_in(tmp_path, name)
        assert not here.store_lies_in(tmp_path, "")
    assert not here.store_lies_in(tmp_path, "another_database")


@pytest.mark.django_db
def test_the_benchs_throwaway_database_is_made_on_the_server_and_dropped_after_the_run() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("a database on a PostgreSQL server")
    import psycopg

    from core.db.postgresql_urls import url_of
    from recall.engines.postgresql.throwaway import new_database

    server = url_of(connection.settings_dict, "postgres")
    with new_database(server, keep=False) as (url, name), psycopg.connect(url) as conn:
        assert conn.execute("SELECT current_database()").fetchone() == (name,)
    with psycopg.connect(server) as conn:
        assert conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchall() == []
