"""bench_api: a real run against the production server it starts (gunicorn and a Celery worker on a
throwaway database), a run against a URL with a key, and the errors that say what to do next."""

from __future__ import annotations

import http.server
import json
import re
import threading
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from bench.api.workload import ROUTE_NAMES
from tests.integration.stack import Http, clean_env, free_port, manage, start_web
from tests.migrated import migrate

EXPECTED_STATUS = {"recall_new": 200, "recall_repeated": 200, "context": 200, "store_fact": 201, "post_turn": 202}


def _table_rows(text: str) -> set[tuple[str, str]]:
    return {(m.group(1), m.group(2)) for m in re.finditer(r"^(\w+)\s+(\d+)\s+[\d.]+\s", text, re.MULTILINE)}


def _assert_every_step_clean(report: dict, concurrency: list[int]) -> None:
    assert sorted(report["results"]) == sorted(ROUTE_NAMES)
    for route, steps in report["results"].items():
        assert sorted(steps) == sorted(str(c) for c in concurrency), route
        for row in steps.values():
            assert row["errors"] == 0 and row["rate_limited"] == 0, (route, row["error_samples"])
            assert row["statuses"] == {str(EXPECTED_STATUS[route]): row["requests"]}
            assert row["p50_ms"] <= row["p95_ms"] <= row["p99_ms"]
            assert row["req_per_s"] > 0


@pytest.mark.integration
@pytest.mark.slow
def test_a_small_run_against_two_production_servers_it_starts_covers_every_route_without_errors(tmp_path, monkeypatch):
    monkeypatch.setenv("WEB_WORKERS", "1")  # one forked worker to warm: the test starts sooner
    out, json_path = StringIO(), tmp_path / "bench.json"
    # 10 facts a user: the index sync of 100 (a few hundred tasks) would be most of the test's time.
    call_command(
        "bench_api",
        *("--users", "2", "--facts-per-user", "10", "--requests", "6", "--concurrency", "1,2"),
        *("--web-servers", "2", "--json", str(json_path)),
        stdout=out,
    )
    report = json.loads(json_path.read_text())
    _assert_every_step_clean(report, [1, 2])
    assert sum(row["requests"] for steps in report["results"].values() for row in steps.values()) == 5 * 2 * 6
    assert _table_rows(out.getvalue()) == {(route, c) for route in ROUTE_NAMES for c in ("1", "2")}
    assert report["server"] == "gunicorn" and report["gunicorn"]["workers"] == 1
    # Two servers on one database, as two hosts run them; two clients talk to one each.
    assert report["web_servers"] == 2 and len(set(report["urls"])) == 2
    assert "and 1 more on the same database" in out.getvalue()
    assert report["keepalive"] is True
    assert (report["users"], report["facts_per_user"]) == (2, 10)
    first = report["first_request"]
    assert first["fresh_server"] is True and first["status"] == 200 and first["ratio"] > 0
    assert "first recall after a fresh start" in out.getvalue()
    assert len(report["load_average"]["start"]) == len(report["load_average"]["end"]) == 3
    assert re.fullmatch(r"[0-9a-f]{40}", report["git"]["commit"])
    for route in ("store_fact", "post_turn"):  # the worker caught up after each writing step
        assert all(row["worker_drain_seconds"] is not None for row in report["results"][route].values())
    assert report["worker_restarts"] == 0


@pytest.fixture(scope="module")
def url_service(tmp_path_factory):
    """A running service at a URL (runserver, tasks inline so no worker is needed) and an admin key."""
    tmp = tmp_path_factory.mktemp("bench-url")
    env = clean_env(
        DATABASE_URL=f"sqlite:///{tmp / 'memory.sqlite3'}",
        MEMORY_VAR_DIR=str(tmp),
        CELERY_TASK_ALWAYS_EAGER="1",
        MEMORY_RATE_LIMIT_READ="off",
        MEMORY_RATE_LIMIT_WRITE="off",
        MEMORY_RATE_LIMIT_RECALL="off",
    )
    migrate(env)
    created = manage(["create_tenant", "bench", "--scopes", "read,write,admin"], env)
    key = re.search(r"^api_key=(\S+)$", created, re.MULTILINE).group(1)
    tenant_id = re.search(r"^tenant_id=(\S+)$", created, re.MULTILINE).group(1)
    issued = manage(["issue_key", tenant_id, "--scopes", "read,write"], env)
    no_admin_key = re.search(r"api_key=(\S+)", issued).group(1)
    proc, base = start_web(env, tmp)
    try:
        yield base, key, no_admin_key
    finally:
        proc.stop()


@pytest.mark.integration
def test_against_a_url_it_measures_every_route_with_a_connection_per_request_then_erases_its_users(
    url_service, tmp_path
):
    base, key, _ = url_service
    json_path = tmp_path / "bench.json"
    call_command(
        "bench_api",
        *("--url", f"{base}/api/v1/", "--api-key", key, "--users", "2", "--facts-per-user", "20"),
        *("--requests", "6", "--concurrency", "1,3", "--no-keepalive"),
        *("--json", str(json_path)),
        stdout=StringIO(),
    )
    report = json.loads(json_path.read_text())
    _assert_every_step_clean(report, [1, 3])
    assert report["server"] == "external" and report["url"] == base
    assert report["first_request"]["fresh_server"] is False
    assert report["keepalive"] is False
    assert report["notes"] == []
    # The admin key let it erase every user it made: the first bench user is gone.
    status, _ = Http(base, key).get(f"/users/{report['user_prefix']}u000/facts")
    assert status == 404


@pytest.mark.integration
def test_without_the_admin_scope_it_leaves_its_users_and_says_how_to_erase_them(url_service):
    base, _, no_admin_key = url_service
    out = StringIO()
    call_command(
        "bench_api",
        *("--url", base, "--api-key", no_admin_key, "--users", "1", "--facts-per-user", "3"),
        *("--requests", "2", "--concurrency", "1", "--routes", "store_fact,recall_new"),
        stdout=out,
    )
    assert _table_rows(out.getvalue()) == {("recall_new", "1"), ("store_fact", "1")}
    prefix = re.search(r"ids starting (bench-\w+-)\)", out.getvalue()).group(1)
    assert "lacks the admin scope" in out.getvalue() and "erase_user" in out.getvalue()
    status, body = Http(base, no_admin_key).get(f"/users/{prefix}u000/facts")
    assert status == 200 and len(body["items"]) == 3


@pytest.mark.integration
def test_a_refused_key_says_which_key_to_pass(url_service):
    base, _, _ = url_service
    with pytest.raises(CommandError, match="refused the API key.*create_tenant"):
        call_command("bench_api", "--url", base, "--api-key", "mem_nope_nope", stdout=StringIO())


def test_a_url_where_nothing_answers_says_to_start_the_service():
    with pytest.raises(CommandError, match=r"Nothing answers at .*Start the service \(make run\)"):
        call_command("bench_api", "--url", f"http://127.0.0.1:{free_port()}", "--api-key", "k", stdout=StringIO())


def test_a_url_serving_something_else_says_it_is_not_the_memory_service():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with pytest.raises(CommandError, match="not as this memory service.*gave 501"):
            url = f"http://127.0.0.1:{server.server_address[1]}"
            call_command("bench_api", "--url", url, "--api-key", "k", stdout=StringIO())
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--concurrency", "0"], "client counts from 1 to 256"),
        (["--concurrency", "1,x"], "comma-separated client counts"),
        (["--concurrency", ""], "client counts from 1 to 256"),
        (["--routes", "recall,post_turn"], "takes names from recall_new"),
        (["--routes", ","], "takes names from recall_new"),
        (["--users", "0"], "must be positive"),
        (["--facts-per-user", "0"], "must be positive"),
        (["--facts-per-user", "301"], "goes up to 300"),
        (["--requests", "-5"], "must be positive"),
        (["--settle-timeout", "0"], "must be positive"),
        (["--json", "/no/such/folder/bench.json"], "does not exist"),
        (["--api-key", "mem_x"], "goes with --url"),
        (["--url", "http://127.0.0.1:9"], "needs --api-key"),
        (["--url", "ftp://127.0.0.1", "--api-key", "k"], "not an http"),
        (["--url", "http://127.0.0.1:9", "--api-key", "k", "--server", "runserver"], "does not apply with --url"),
        (["--web-servers", "0"], "takes 1 to 4"),
        (["--url", "http://127.0.0.1:9", "--api-key", "k", "--web-servers", "2"], "with --url it starts none"),
    ],
)
def test_bad_options_are_refused_before_anything_starts(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("bench_api", *args, stdout=StringIO())
