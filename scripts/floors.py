"""How the house stands: lines per app, imports that run up the floors, import circles, the
places that name a storage engine, and functions not fully annotated (product apps and bench
apart; tests and migrations are not counted).

    .venv/bin/python scripts/floors.py            # the report
    .venv/bin/python scripts/floors.py --json     # the same figures for a script

The floors, bottom to top (docs/design.md, "Code layout"): the ground (`core`: errors,
schemas, counters, db helpers, ...), then facts, recall, profiles (with the importer and
webhooks beside it), the doors (mcp_server, mem0_api), bench, the staff dashboard
(`dashboard`: pages over every app below it, imported by the URL wiring alone), and on the
roof the project package `memory_service` (settings, URLs, the API, Celery, WSGI, health,
warm-up, backups).
An import from a lower floor to a higher one "runs up"; an import inside a function or under
TYPE_CHECKING is counted too, because it only hides the dependency.
A place that names a storage engine is a line of code (not a comment or docstring) outside
the engine seam's folder, recall/engines/, that reads settings.DATABASE_ENGINE or the
connection's vendor, writes a postgresql:// URL or guards a migration with OnlyOn;
tests/service/test_floors_script.py holds the files allowed to (the settings, the migrations
and their guard, the URL reader the settings use). A circle is a group of modules that reach each other through these
imports; tests/service/test_floors_script.py keeps circles and upward imports at zero.
It reads the source with `ast` and imports nothing, so it runs on a broken tree as well.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import re
import sys
import tokenize
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = [
    "core",
    "memory_service",
    "facts",
    "recall",
    "profiles",
    "importer",
    "webhooks",
    "mcp_server",
    "mem0_api",
    "bench",
    "dashboard",
]
FLOOR = {
    "ground": 0,
    "facts": 1,
    "recall": 2,
    "profiles": 3,
    "importer": 3,
    "webhooks": 3,
    "mcp_server": 4,
    "mem0_api": 4,
    "bench": 5,
    "dashboard": 6,
    "roof": 7,
}
# What names a storage engine outside the engine folders: the setting, the connection's
# vendor, a URL scheme, a migration guard.
ENGINE_WORDS = re.compile(r"DATABASE_ENGINE|connection\.vendor|\.vendor ==|OnlyOn\(|\"postgresql://|'postgresql://")
# The engine seam: one folder per engine and the selector (recall/engines/__init__.py).
SEAM = ROOT / "recall" / "engines"


def modules() -> dict[str, Path]:
    found = {}
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            found[name] = path
    return found


def floor_of(module: str) -> str:
    app = module.partition(".")[0]
    return {"core": "ground", "memory_service": "roof"}.get(app, app)


def _hidden_lines(tree: ast.AST) -> set[int]:
    """Lines of imports inside a function or an `if TYPE_CHECKING:` block."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        guarded = isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or guarded:
            hidden.update(n.lineno for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom))
    return hidden


def imports(name: str, path: Path, known: dict[str, Path]) -> list[tuple[str, int, bool]]:
    """(imported product module, line, hidden) for each import in the file."""
    tree = ast.parse(path.read_text(), str(path))
    hidden = _hidden_lines(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                )
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.append((target, node.lineno, node.lineno in hidden))
    return found


def _code(text: str) -> list[str]:
    """The file's lines with comments and docstrings blanked: prose may name an engine."""
    lines = text.splitlines()
    for node in ast.walk(ast.parse(text)):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            for number in range(first.lineno, (first.end_lineno or first.lineno) + 1):
                lines[number - 1] = ""
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            row, col = token.start
            lines[row - 1] = lines[row - 1][:col]
    return lines


def engine_places(path: Path, text: str) -> list[int]:
    """Lines of code outside the seam that name a storage engine."""
    if path.is_relative_to(SEAM):
        return []
    return [number for number, line in enumerate(_code(text), 1) if ENGINE_WORDS.search(line)]


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def unannotated_lines(tree: ast.AST) -> list[int]:
    """The lines of the functions missing a parameter's or the return's annotation (self and cls
    need none; `__init__` needs `-> None`, which mypy would infer but a reader would not)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            args += [a for a in (node.args.vararg, node.args.kwarg) if a]
            params = [a for a in args if a.arg not in ("self", "cls")]
            if node.returns is None or any(a.annotation is None for a in params):
                found.append(node.lineno)
    return found


def not_fully_annotated(tree: ast.AST) -> int:
    return len(unannotated_lines(tree))


def report() -> dict:
    known = modules()
    lines: Counter[str] = Counter()
    graph: dict[str, set[str]] = defaultdict(set)
    upward, places = [], []
    # Functions and those not fully annotated, product apps and bench apart (bench may stay
    # relaxed, pyproject.toml says why); tests and migrations are not counted.
    functions: Counter[str] = Counter()
    untyped: dict[str, list[str]] = {"product": [], "bench": []}
    for name, path in known.items():
        text = path.read_text()
        tree = ast.parse(text)
        floor = floor_of(name)
        lines[floor if floor in ("ground", "roof") else name.split(".")[0]] += text.count("\n")
        if "migrations" not in path.parts and "tests" not in path.parts:
            part = "bench" if floor == "bench" else "product"
            functions[part] += sum(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) for n in ast.walk(tree))
            untyped[part] += [f"{path.relative_to(ROOT)}:{line}" for line in unannotated_lines(tree)]
        for target, line, hidden in set(imports(name, path, known)):
            graph[name].add(target)
            if FLOOR[floor_of(target)] > FLOOR[floor]:
                upward.append(f"{path.relative_to(ROOT)}:{line} -> {target}" + (" (hidden)" if hidden else ""))
        places += [f"{path.relative_to(ROOT)}:{number}" for number in engine_places(path, text)]
    return {
        "lines": dict(sorted(lines.items(), key=lambda kv: FLOOR.get(kv[0], 9))),
        "upward_imports": sorted(set(upward)),
        "circles": circles(graph),
        "engine_places": places,
        "functions": sum(functions.values()),
        "not_fully_annotated": sum(len(found) for found in untyped.values()),
        "functions_by_part": dict(functions),
        "not_fully_annotated_by_part": {part: len(found) for part, found in untyped.items()},
        "unannotated_product_functions": untyped["product"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    figures = report()
    if parser.parse_args().json:
        print(json.dumps(figures, indent=2))
        return 0
    print("lines per floor/app: " + ", ".join(f"{k} {v}" for k, v in figures["lines"].items()))
    print(f"imports that run up the floors: {len(figures['upward_imports'])}")
    for item in figures["upward_imports"]:
        print(f"  {item}")
    print(f"import circles: {len(figures['circles'])}")
    for group in figures["circles"]:
        print("  " + " <-> ".join(group))
    print(f"places that name an engine outside the engine seam (recall/engines/): {len(figures['engine_places'])}")
    for place in figures["engine_places"]:
        print(f"  {place}")
    parts = figures["functions_by_part"]
    by_part = figures["not_fully_annotated_by_part"]
    print(
        f"functions not fully annotated: {figures['not_fully_annotated']} of {figures['functions']}"
        f" (product apps {by_part['product']} of {parts.get('product', 0)},"
        f" bench {by_part['bench']} of {parts.get('bench', 0)}; tests and migrations not counted)"
    )
    for item in figures["unannotated_product_functions"]:
        print(f"  {item}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
