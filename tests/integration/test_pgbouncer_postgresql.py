"""On PostgreSQL: the service through a real PgBouncer in transaction mode (Debian's package,
scripts/system-deps.sh). Eight clients store and recall at once through a pool of two server
connections: every answer is right, and the server never sees more than the pool's two.

What transaction pooling needs from the service (docs/deployment.md, "Connections"): no session
state across statements (Django binds parameters on the client, so no prepared statements; with
DATABASE_SERVER_SIDE_BINDING=on they are bound on the server in unnamed statements, which half the
clients here go through), and
the compaction pass's session-level advisory lock on a direct connection (the `db` worker that
runs beat keeps DATABASE_URL pointed at PostgreSQL itself).
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest

from core.db.postgresql_urls import connect_kwargs, database_config, url_of
from tests.base import service_database_url
from tests.integration.stack import Http, clean_env, free_port, manage, start_web, wait_for
from tests.migrated import migrate

pytestmark = [pytest.mark.integration, pytest.mark.slow]

POOL = 2
CLIENTS = 8
PGBOUNCER = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"


@pytest.fixture(scope="module")
def through_pgbouncer(tmp_path_factory):
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        pytest.skip("PgBouncer pools PostgreSQL connections")
    if not Path(PGBOUNCER).exists():
        pytest.fail("pgbouncer not found: run `make system-deps` (Debian's pgbouncer) first.")
    tmp = tmp_path_factory.mktemp("pgbouncer")
    direct_url = service_database_url(tmp)
    direct = database_config(direct_url)
    env = clean_env(DATABASE_URL=direct_url, MEMORY_VAR_DIR=str(tmp), CELERY_TASK_ALWAYS_EAGER="1")
    migrate(env)
    key = re.search(r"^api_key=(\S+)$", manage(["create_tenant", "pooled"], env), re.MULTILINE).group(1)
    bouncer, port = _start_pgbouncer(direct)
    try:
        pooled_url = url_of({**direct, "HOST": "127.0.0.1", "PORT": str(port)})
        (tmp / "web").mkdir()
        (tmp / "web-bound").mkdir()
        web, base = start_web({**env, "DATABASE_URL": pooled_url}, tmp / "web")
        bound = None
        try:
            bound, bound_base = start_web(
                {**env, "DATABASE_URL": pooled_url, "DATABASE_SERVER_SIDE_BINDING": "on"}, tmp / "web-bound"
            )
            yield (Http(base, key, timeout=120), Http(bound_base, key, timeout=120)), direct, port
        finally:
            web.stop()
            if bound is not None:
                bound.stop()
    finally:
        bouncer.terminate()
        bouncer.wait(10)


def _start_pgbouncer(direct: dict) -> tuple[subprocess.Popen, int]:
    folder = Path(tempfile.mkdtemp(prefix="pgbouncer-"))
    port = free_port()
    (folder / "users.txt").write_text(f'"{direct["USER"]}" ""\n')
    (folder / "pgbouncer.ini").write_text(
        "[databases]\n"
        f"{direct['NAME']} = host={direct['HOST']} port={direct.get('PORT') or 5432} dbname={direct['NAME']}\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {folder / 'users.txt'}\n"
        f"pool_mode = transaction\ndefault_pool_size = {POOL}\nmax_client_conn = 100\n"
        "ignore_startup_parameters = extra_float_digits,options\n"
        f"logfile = {folder / 'pgbouncer.log'}\n"
    )
    user = "pgserver" if os.geteuid() == 0 else None  # PgBouncer refuses to run as root
    if user is not None:
        entry = pwd.getpwnam(user)
        for path in [folder, *folder.iterdir()]:
            os.chown(path, entry.pw_uid, entry.pw_gid)
    proc = subprocess.Popen([PGBOUNCER, str(folder / "pgbouncer.ini")], user=user)

    def listening():
        try:
            with psycopg.connect(**{**connect_kwargs(direct), "host": "127.0.0.1", "port": port}, connect_timeout=1):
                return True
        except psycopg.OperationalError:
            return proc.poll() is not None

    wait_for(listening, 20, 0.1, "pgbouncer")
    if proc.poll() is not None:
        raise RuntimeError((folder / "pgbouncer.log").read_text())
    return proc, port


def test_store_and_recall_through_pgbouncer_in_transaction_mode(through_pgbouncer):
    (http, http_bound), direct, _ = through_pgbouncer
    seen: list[int] = []
    bound_on_server: list[bool] = []
    stop = threading.Event()

    def watch_server_connections():
        with psycopg.connect(**connect_kwargs(direct), autocommit=True) as conn:
            while not stop.is_set():
                # A statement bound on the server shows its placeholders ($1) in the pool's
                # connections' last query; one bound by Django's client cursor, its values.
                row = conn.execute(
                    "SELECT count(*), coalesce(bool_or(query LIKE '%%$1%%'), false) FROM pg_stat_activity "
                    "WHERE datname = %s AND pid <> pg_backend_pid()",
                    [direct["NAME"]],
                ).fetchone()
                seen.append(int(row[0]))
                bound_on_server.append(bool(row[1]))
                time.sleep(0.02)

    def client(number: int) -> list[str]:
        # Odd clients go through the web server with DATABASE_SERVER_SIDE_BINDING=on.
        http_of = http_bound if number % 2 else http
        user = f"pooled-{number}"
        status, _ = http_of.post(f"/users/{user}/facts", {"text": f"{user} keeps a red kayak number {number}"})
        assert status == 201
        answers = []
        for _ in range(5):
            status, body = http_of.post(f"/users/{user}/recall", {"query": "red kayak", "k": 3})
            assert status == 200, body
            answers.append(body["items"][0]["fact"]["text"])
        return answers

    http.post("/users/warm/recall", {"query": "load the model first"})
    http_bound.post("/users/warm/recall", {"query": "load the model first"})
    watcher = threading.Thread(target=watch_server_connections)
    watcher.start()
    try:
        with ThreadPoolExecutor(CLIENTS) as pool:
            results = list(pool.map(client, range(CLIENTS)))
    finally:
        stop.set()
        watcher.join()
    for number, answers in enumerate(results):
        assert answers == [f"pooled-{number} keeps a red kayak number {number}"] * 5
    assert seen and max(seen) <= POOL, max(seen)
    assert any(bound_on_server), "no statement bound on the server went through PgBouncer"
