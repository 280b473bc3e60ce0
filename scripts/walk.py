"""The walk of a posted turn and of a recall: the product's files a request enters, in order.

    .venv/bin/python scripts/walk.py            # both walks, as a list per request
    .venv/bin/python scripts/walk.py --json     # the same for a script

It makes a throwaway SQLite store in a temporary folder, a tenant and its key, and runs the
requests in this process through Django's test client, with Celery's tasks inline (as the
test suite does) and the offline rules extractor (no OPENAI_API_KEY). A first turn and recall
warm every lazy import and the embedding model; the second of each is the one walked, so
what is listed is the request's own path, not the cost of a first import. A file is listed
when a function of it is first called, with that function's name and how many calls the
file took in all; only the project's own apps count (docs/design.md, "Code layout").
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
APPS = ("core", "memory_service", "facts", "recall", "profiles", "importer", "webhooks", "dashboard")


def _settle_environment(folder: Path) -> None:
    os.environ.update(
        DJANGO_SETTINGS_MODULE="memory_service.settings",
        DATABASE_URL=f"sqlite:///{folder / 'walk.sqlite3'}",
        MEMORY_ERASURE_JOURNAL=str(folder / "erasure-journal.sqlite3"),
        CELERY_TASK_ALWAYS_EAGER="true",
        OPENAI_API_KEY="",
        HF_HUB_OFFLINE="1",
    )
    sys.path.insert(0, str(ROOT))


class Walk:
    """Records the first call into each of the apps' files while it is on (sys.setprofile)."""

    def __init__(self) -> None:
        self.order: list[tuple[str, str]] = []
        self.calls: Counter[str] = Counter()

    def _relative(self, filename: str) -> str | None:
        path = Path(filename)
        if not path.is_relative_to(ROOT) or ".venv" in path.parts:
            return None
        relative = path.relative_to(ROOT)
        return str(relative) if relative.parts[0] in APPS else None

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or frame.f_code.co_name == "<module>":
            return
        name = self._relative(frame.f_code.co_filename)
        if name is None:
            return
        if name not in self.calls:
            self.order.append((name, frame.f_code.co_name))
        self.calls[name] += 1

    def rows(self) -> list[dict[str, Any]]:
        return [{"file": f, "first": fn, "calls": self.calls[f]} for f, fn in self.order]


def _walked(request: Any) -> list[dict[str, Any]]:
    walk = Walk()
    sys.setprofile(walk)
    try:
        response = request()
    finally:
        sys.setprofile(None)
    if response.status_code >= 400:
        raise SystemExit(f"the walked request failed: {response.status_code} {response.content[:300]!r}")
    return walk.rows()


def _walks() -> dict[str, list[dict[str, Any]]]:
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from django.test import Client

    from facts.models import ApiKey, Tenant

    tenant = Tenant.objects.create(name="walk")
    _, raw = ApiKey.objects.issue(tenant=tenant, name="walk", scopes=("read", "write"))
    client = Client(headers={"Authorization": f"Bearer {raw}"})

    def post(path: str, body: dict[str, Any]) -> Any:
        return client.post(f"/api/v1{path}", data=json.dumps(body), content_type="application/json")

    def turn(n: int) -> Any:
        text = f"I moved to Lisbon last spring and I work as a nurse. Turn {n}."
        return post("/users/walker/turns", {"session_id": "s1", "turn_id": f"t{n}", "user_input": text})

    def recall() -> Any:
        return post("/users/walker/recall", {"query": "where do I live?", "sources": ["facts", "episodes"]})

    turn(1), recall()  # warm-up: lazy imports, the embedding model, caches
    return {"posted turn": _walked(lambda: turn(2)), "recall": _walked(recall)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the walks as JSON")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="walk-") as folder:
        _settle_environment(Path(folder))
        walks = _walks()
    if args.json:
        print(json.dumps(walks, indent=2))
        return 0
    for name, rows in walks.items():
        print(f"\n{name}: {len(rows)} files, {sum(r['calls'] for r in rows)} calls into them")
        for i, row in enumerate(rows, 1):
            print(f"{i:3d}. {row['file']:<42} {row['first']:<36} {row['calls']:>6}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
