"""The production server: gunicorn with gunicorn.conf.py, as `make run` starts it, DEBUG off."""

from __future__ import annotations

import re
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.integration.stack import BIN, ROOT, Http, Proc, clean_env, free_port, manage, wait_for
from tests.migrated import migrate

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def _start(tmp: Path, **settings: str) -> tuple[Proc, Http, dict]:
    """gunicorn with gunicorn.conf.py on a migrated temp database, once both workers are warm
    (no request is sent before that): the process, a client with a fresh key, the environment."""
    port = free_port()
    env = clean_env(
        DATABASE_URL=f"sqlite:///{tmp / 'memory.sqlite3'}",
        MEMORY_VAR_DIR=str(tmp),
        WEB_BIND=f"127.0.0.1:{port}",
        WEB_WORKERS="2",
        WEB_THREADS="2",
        **settings,
    )
    migrate(env)
    manage(["collectstatic", "--noinput", "-v", "0"], env)
    key = re.search(r"^api_key=(\S+)$", manage(["create_tenant", "gunicorn"], env), re.MULTILINE).group(1)
    proc = Proc(
        "gunicorn", [str(BIN / "gunicorn"), "-c", str(ROOT / "gunicorn.conf.py")], cwd=ROOT, env=env, log_dir=tmp
    )
    try:
        wait_for(
            lambda: proc.log().count("request threads warm") >= 2 or proc.popen.poll() is not None,
            180,
            0.2,
            "two warm gunicorn workers",
        )
        assert proc.popen.poll() is None, proc.log()
    except BaseException:
        proc.stop()
        raise
    return proc, Http(f"http://127.0.0.1:{port}", key), env


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    proc, http, _ = _start(tmp_path_factory.mktemp("gunicorn"))
    try:
        yield proc, http
    finally:
        proc.stop()


def test_the_first_request_finds_the_model_loaded_and_names_the_sqlite(server):
    proc, http = server
    status, health = http.get("/health")
    assert status == 200
    assert health["embedder"]["loaded"] is True
    assert health["sqlite"].endswith("(sqlean)")
    assert "Running on SQLite" in proc.log()


def test_the_broker_transport_is_imported_before_the_workers_fork(server):
    """A request's API-key bookkeeping sends a task; importing the broker's transport then
    cost the first request of every worker ~250 ms (docs/measurements.md §9)."""
    proc, _ = server
    log = proc.log()
    assert "Broker transport Transport imported" in log
    assert log.index("Broker transport Transport imported") < log.index("Booting worker")
    assert "Broker not reachable" not in log


def test_recall_answers_in_every_forked_worker(server):
    """torch ran in the master before the fork: a worker whose thread pool is broken would hang here."""
    _proc, http = server
    for text in ["User drinks black coffee every morning.", "User's sister lives in Paris."]:
        assert http.post("/users/u1/facts", {"text": text})[0] == 201
    answers: list[tuple[int, dict]] = []

    def ask(n: int) -> None:
        answers.append(http.post("/users/u1/recall", {"query": f"black coffee, question {n}", "k": 5}))

    # More concurrent requests than one worker has threads, so both workers serve some.
    askers = [threading.Thread(target=ask, args=(n,)) for n in range(8)]
    for asker in askers:
        asker.start()
    for asker in askers:
        asker.join(timeout=120)
    assert len(answers) == 8
    for status, body in answers:
        assert status == 200
        assert any("coffee" in item["fact"]["text"] for item in body["items"])


def test_static_files_are_served_with_debug_off(server):
    _proc, http = server
    with urllib.request.urlopen(f"{http.base}/static/css/app.css", timeout=30) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/css")
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"{http.base}/no-such-page", timeout=30)
    assert missing.value.code == 404
    assert b"DEBUG = True" not in missing.value.read()  # Django's technical 404 page


def test_every_request_thread_is_warm_before_its_worker_serves(server):
    """The first request of a fresh server found a cold thread: no connection, nothing compiled
    (docs/measurements.md §9). Each worker warms all its threads before it accepts one."""
    proc, _ = server
    log = proc.log()
    assert log.count("2 request threads warm") == 2, log[-3000:]
    assert "Could not warm a request thread" not in log


def test_a_stopped_server_flushes_its_log_rows_and_its_workers_exit_cleanly(tmp_path):
    """ONNX Runtime's C++ exit handlers, in a forked worker, aborted it ("terminate called",
    SIGABRT) or hung it; the worker now ends after Python's own exit handlers, which still
    write the recall log rows it had buffered."""
    proc, http, env = _start(tmp_path, MEMORY_LOG_BUFFER_ROWS="1000", MEMORY_LOG_BUFFER_SECONDS="3600")
    try:
        assert http.post("/users/u1/facts", {"text": "User keeps bees."})[0] == 201
        for n in range(4):
            assert http.post("/users/u1/recall", {"query": f"bees {n}"})[0] == 200
    finally:
        proc.popen.terminate()
        code = proc.popen.wait(timeout=60)
    log = proc.log()
    assert code == 0, log[-3000:]
    assert "terminate called" not in log and "SIGABRT" not in log and "SIGKILL" not in log, log[-3000:]
    logged = manage(["shell", "-c", "from recall.models import RecallLog; print(RecallLog.objects.count())"], env)
    assert logged.strip().splitlines()[-1] == "4"
