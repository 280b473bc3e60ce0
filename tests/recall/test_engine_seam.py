"""The storage-engine seam (core/engine.py, recall/engines/): every engine defines every
function of the interface with the interface's parameter names, so a caller may pass any
argument by name on either engine (before, vec.delete took `fact_ids` on SQLite and `ids`
on PostgreSQL), and the engine in use is the one the settings name."""

from __future__ import annotations

import inspect
from types import ModuleType

import pytest
from django.conf import settings

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
