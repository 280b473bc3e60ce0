"""Build the first release's store (commit fb8a619) and what it answered, for tests/upgrade.

    .venv/bin/python tests/upgrade/build_first_release_store.py

Extracts that commit with `git archive` into a temporary folder and runs its own
code there: its migrations, then first_release_seed.py (facts, turns, the staff
queue, forgets and erasures through its API and services, with the local
embedding model), then ask_recalls.py (its recall API). Writes, under
tests/upgrade/data/: first_release.sqlite3 (the store) and first_release.json
(the questions and that release's answers, and each table's columns, row count
and digest). Needs the git history (a full clone) and this repository's venv.

The release imported `pysqlite3` (pysqlite3-binary, no longer in the lock); a
stand-in package of two lines hands it sqlean, the driver current main uses.
Both bundle a SQLite with FTS5 that loads sqlite-vec; the file format is the same.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from contextlib import closing
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from tests.integration.stack import clean_env  # noqa: E402
from tests.upgrade import store_rows  # noqa: E402

RELEASE = "fb8a619"
DATA = HERE / "data"
STORE = DATA / "first_release.sqlite3"
ANSWERS = DATA / "first_release.json"
PYSQLITE3_STANDIN = {
    "__init__.py": "from sqlean import *  # noqa: F403\nfrom sqlean import dbapi2  # noqa: F401\n",
    "dbapi2.py": "from sqlean.dbapi2 import *  # noqa: F403\n",
}

ADA, BOB, CY = "user-ada", "user-bob", "user-cy"


def _question(user: str, query: str, mode: str = "hybrid", key: str = "first", **extra) -> dict:
    return {"key": key, "user": user, "body": {"query": query, "mode": mode, "k": 5, **extra}}


def questions(before_move: str) -> list[dict]:
    return [
        _question(ADA, "where does the user live"),
        _question(ADA, "where does the user live", as_of=before_move),
        _question(ADA, "tea or coffee"),
        _question(ADA, "what pet does the user have", "vector"),
        _question(ADA, "allergic", "lexical"),
        _question(ADA, "Kyoto trip"),
        _question(ADA, "sister"),
        _question(ADA, "cello"),  # forgotten: only back-fill may answer
        _question(ADA, "hiking", "lexical"),
        _question(ADA, "which programming language", "vector"),
        _question(ADA, "what is the user's job"),
        _question(CY, "where does the user live", key="second"),
        _question(BOB, "stamps"),  # erased: 404
        _question(ADA, "tea", key="second"),  # another tenant's user: 404
    ]


def _release_tree(tmp: Path) -> Path:
    tree = tmp / "release"
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", RELEASE], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    standin = tmp / "standin" / "pysqlite3"
    standin.mkdir(parents=True)
    for name, text in PYSQLITE3_STANDIN.items():
        (standin / name).write_text(text)
    return tree


def _run_release(tree: Path, store: Path, script: str, *args: str) -> str:
    env = clean_env(
        DATABASE_URL=f"sqlite:///{store}",
        PYTHONPATH=str(tree.parent / "standin"),
        CELERY_TASK_ALWAYS_EAGER="true",
    )
    out = subprocess.run(
        [sys.executable, str(HERE / script), *args], cwd=tree, env=env, capture_output=True, text=True, timeout=300
    )
    if out.returncode != 0:
        raise SystemExit(f"{script} failed in the release tree:\n{out.stderr[-4000:]}")
    return out.stdout.strip().splitlines()[-1]


def _single_file(store: Path) -> None:
    """Fold the WAL into the file, so the fixture is one file."""
    with closing(store_rows.connect(store)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA journal_mode=DELETE")


def build(tmp: Path) -> dict:
    tree = _release_tree(tmp)
    store = tmp / "store.sqlite3"
    seeded = json.loads(_run_release(tree, store, "first_release_seed.py"))
    spec = {"keys": seeded["keys"], "questions": questions(seeded["before_move"])}
    (tmp / "questions.json").write_text(json.dumps(spec))
    answers = json.loads(_run_release(tree, store, "ask_recalls.py", str(tmp / "questions.json")))
    _single_file(store)
    DATA.mkdir(exist_ok=True)
    shutil.copyfile(store, STORE)
    with closing(store_rows.connect(STORE)) as conn:
        rows = {"facts": store_rows.facts(conn), "history": store_rows.history(conn)}
    return {"release": RELEASE, **spec, "answers": answers, "tables": store_rows.snapshot(STORE), **rows}


def main() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    with tempfile.TemporaryDirectory() as tmp:
        fixture = build(Path(tmp))
    ANSWERS.write_text(json.dumps(fixture, indent=1) + "\n")
    print(f"{STORE} ({STORE.stat().st_size // 1024} KiB), {ANSWERS}")


if __name__ == "__main__":
    main()
