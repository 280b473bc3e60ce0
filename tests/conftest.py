"""Shared fixtures: three tenants (alice, bob, charlie) and API clients for them.

Tests run against a real SQLite file (settings.DATABASES TEST NAME) with FTS5
and sqlite-vec loaded, or a real PostgreSQL with pgvector (tests/on_postgres.py),
and Celery in eager mode unless a test starts workers.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import pytest  # noqa: E402

from tests.base import ApiClient, make_tenant  # noqa: E402
from tests.strays import SUITE_MARK, stop_all, stray_processes  # noqa: E402

# Every process a test starts inherits this mark (tests/strays.py); at the end of the
# session none that carries it may still run. pytest-xdist's workers keep the mark of the
# pytest that started them, which checks for all of them once they have stopped.
XDIST_WORKER = "PYTEST_XDIST_WORKER" in os.environ
if not XDIST_WORKER:
    os.environ[SUITE_MARK] = str(os.getpid())


@pytest.hookimpl(wrapper=True)
def pytest_sessionfinish(session, exitstatus):
    # After every other finish hook: xdist's stops its workers in one.
    result = yield
    if XDIST_WORKER:
        return result
    strays = stray_processes(os.environ[SUITE_MARK], grace_seconds=10)
    if strays:
        stop_all(strays)
        listing = "\n".join(f"  {pid}: {command}" for pid, command in strays.items())
        session.config.get_terminal_writer().line(
            f"Processes started by tests were still running:\n{listing}", red=True
        )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    return result


# The longest files of a CI run (the sums of its --durations per file, tests/both_engines.py,
# 2026-11-29), longest first: they start first, then the other slow files (marked `integration`
# or `slow`), then the rest.
LONGEST = (
    "tests/hosts/test_drill.py",
    "tests/bench/test_bench_api.py",
    "tests/integration/test_openapi_contract.py",
    "tests/facts/test_consent_model.py",
    "tests/recall/test_move_store.py",
    "tests/connectors/test_forget_every_door.py",
    "tests/facts/test_embedded_worker.py",
    "tests/connectors/test_mem0_client.py",
    "tests/service/test_gunicorn.py",
    "tests/integration/test_extraction_workers.py",
    "tests/bench/test_bench_backup.py",
    "tests/integration/test_killed_worker.py",
    "tests/facts/test_consent_detector.py",
    "tests/service/test_production_settings.py",
    "tests/profiles/test_context_block.py",
    "tests/integration/test_two_web_hosts.py",
    "tests/bench/test_recall_commands.py",
    "tests/facts/test_concurrency.py",
    "tests/dashboard/test_views_login.py",
)


def _slow_files_first(items) -> None:
    """The files that start servers and workers first, the quick ones after. pytest-xdist hands
    out a file at a time (`--dist loadfile --no-loadscope-reorder`, tests/both_engines.py); by
    default it starts with the files of the most tests, which are quick (the consent sets'
    phrasings), and left the minute-long ones, a test or two each, for the end: one worker
    finishing them while the other had nothing left."""
    files = [item.nodeid.split("::")[0] for item in items]
    slow = {
        file
        for file, item in zip(files, items, strict=True)
        if item.get_closest_marker("integration") or item.get_closest_marker("slow")
    }
    rank = {file: index for index, file in enumerate(LONGEST)}
    first_seen = {file: index for index, file in reversed(list(enumerate(files)))}
    order = {
        id(item): (rank.get(file, len(rank)), file not in slow, first_seen[file])
        for file, item in zip(files, items, strict=True)
    }
    items.sort(key=lambda item: order[id(item)])


@pytest.hookimpl(trylast=True)  # after pytest-django's own ordering (by kind of database use)
def pytest_collection_modifyitems(config, items):
    from django.conf import settings

    _slow_files_first(items)
    if settings.DATABASE_ENGINE == "sqlite":
        return
    skip = pytest.mark.skip(reason="about SQLite itself; this run is on PostgreSQL")
    once = pytest.mark.skip(reason="touches no database: the SQLite run has it")
    for item in items:
        if "sqlite_only" in item.keywords:
            item.add_marker(skip)
        elif "no_database" in item.keywords:
            item.add_marker(once)


@pytest.fixture(autouse=True, scope="session")
def celery_eager():
    """Run tasks inline in this process only.

    Set on the app, not through the environment: pytest-django has loaded the
    settings before this file is imported, and worker processes started by
    integration tests must not inherit eager mode.
    """
    from django.conf import settings

    from memory_service.celery import app

    settings.CELERY_TASK_ALWAYS_EAGER = True
    app.conf.update(task_always_eager=True, task_eager_propagates=True)
    yield


@pytest.fixture(autouse=True)
def result_get_allowed():
    """Each test starts with Celery's "a task is running here" flag down.

    An eager `apply_async` raises that flag for as long as it runs and puts back what it found,
    in one global of the process, not of the thread. When a test's threads send tasks at once
    (requests in parallel through the test client), one puts back the raised flag another left,
    and it stays raised: every later `.apply(...).get()` of that process refused with "Never call
    result.get() within a task!" (7 tests of the PostgreSQL run of 0f10170, once its files ran in
    another order). The product never waits for a result; only tests do."""
    from celery._state import _set_task_join_will_block

    _set_task_join_will_block(False)
    yield


@pytest.fixture(autouse=True)
def active_extractor_read_afresh():
    """Each test reads the active extractor afresh: a process reuses it for a few seconds
    (facts/extraction/status.py `active_extractor`), and tests change the settings it is read from."""
    from facts.extraction import status

    status._active.clear()


@pytest.fixture(autouse=True, scope="session")
def erasure_journal_of_this_run(tmp_path_factory):
    """Erasures made by tests go to a journal of this run (and of the processes it starts),
    never to var/'s, which `make run`'s store uses (core/db/journal.py)."""
    from django.conf import settings

    path = str(tmp_path_factory.mktemp("journal") / "erasure-journal.sqlite3")
    settings.MEMORY_ERASURE_JOURNAL = os.environ["MEMORY_ERASURE_JOURNAL"] = path
    settings.MEMORY_BACKUP_DIR = Path(tmp_path_factory.mktemp("backups"))
    yield


@pytest.fixture(autouse=True, scope="session")
def log_rows_written_at_once():
    """Log rows are saved in the request, as if unbuffered; tests of the buffer turn it on."""
    from django.conf import settings

    settings.MEMORY_LOG_BUFFER_ROWS = 0
    yield


def _drop_index_rows_nothing_backs(sender, **kwargs):
    """After a flush (the end of a transactional test) Django sends post_migrate: the flush has
    emptied the models' tables but not the recall index's own (FTS, vectors), whose rows would
    otherwise turn up in whatever test runs next in this process."""
    if sender.label == "recall":
        from io import StringIO

        from django.core.management import call_command

        call_command("rebuild_recall_index", stdout=StringIO(), stderr=StringIO())


@pytest.fixture(autouse=True, scope="session")
def index_emptied_with_every_flush():
    from django.db.models.signals import post_migrate

    post_migrate.connect(_drop_index_rows_nothing_backs, dispatch_uid="tests-index-after-flush")
    yield
    post_migrate.disconnect(dispatch_uid="tests-index-after-flush")


@pytest.fixture
def alice(db):
    return make_tenant("alice")


@pytest.fixture
def bob(db):
    return make_tenant("bob")


@pytest.fixture
def api(alice):
    """A JSON client authenticated as alice's full-scope key."""
    return ApiClient(alice.raw_key)


@pytest.fixture
def bob_api(bob):
    return ApiClient(bob.raw_key)


CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


@pytest.fixture(scope="session")
def browser():
    """Debian's headless Chromium, driven by Playwright; one per test session.

    Shared by every browser test: Playwright's sync API keeps an event loop
    running in this thread, so a second sync_playwright() in the same session
    would refuse to start.
    """
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} not found: run `make system-deps` (Debian's chromium) first.")
    # That running loop makes Django refuse ORM calls from this thread unless told
    # otherwise; browser tests seed and check data between page actions.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield chromium
        chromium.close()
