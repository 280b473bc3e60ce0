"""The OpenAPI schema tells the truth: schemathesis runs every route against a live server.

Every check schemathesis runs by default (server errors, status codes, content
types, response headers and bodies against the schema, schema-valid requests
accepted, schema-invalid ones refused) must pass. The run is bounded (a fixed
number of examples per route) and seeded, so it is reproducible; data is seeded
first so routes behind ids answer more than 404 (see schemathesis_hooks.py).
"""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from tests.base import service_database_url
from tests.integration.stack import BIN, ROOT, Http, Proc, clean_env, manage, start_web
from tests.migrated import migrate

EXAMPLES_PER_ROUTE = 12
SEED = 15
USER = "contract-user"


def _seed(http: Http) -> dict:
    """Two facts and a turn for one user; their ids for the hooks."""
    ids: dict = {"user_id": USER, "session_id": "contract-session", "turn_id": "contract-turn"}
    for text in ("Lives in Lisbon.", "Prefers green tea to coffee."):
        status, fact = http.post(f"/users/{USER}/facts", {"text": text, "category": "identity"})
        assert status == 201, fact
        ids["fact_id"] = fact["id"]
    status, turn = http.post(
        f"/users/{USER}/turns",
        {"session_id": ids["session_id"], "turn_id": ids["turn_id"], "user_input": "I moved to Porto last week."},
    )
    assert status in (200, 202), turn
    status, doomed = http.post(f"/users/{USER}/facts", {"text": "Owns a red bicycle.", "category": "identity"})
    assert status == 201, doomed
    ids["DELETE /users/{user_id}"] = {"user_id": "contract-erased"}
    ids["DELETE /facts/{fact_id}"] = {"fact_id": doomed["id"]}
    # A memory mode of read_only or off would refuse the seeded user's writes for the routes
    # tested after it: setting one gets a user of its own.
    ids["PUT /users/{user_id}/memory-mode"] = {"user_id": "contract-mode"}
    status, body = http.post("/users/contract-erased/facts", {"text": "Lives in Faro.", "category": "identity"})
    assert status == 201, body
    # Endpoints for the delete to find, one per call (no worker runs here, so nothing is sent).
    hooks = []
    for _ in range(60):
        status, hook = http.post("/webhooks", {"url": "http://127.0.0.1:9/contract", "events": ["fact.created"]})
        assert status == 201, hook
        hooks.append(hook["id"])
    ids["DELETE /webhooks/{endpoint_id}"] = {"endpoint_id": hooks}
    return ids


def _failed_turn(http: Http, env: dict) -> dict:
    """A turn of the seeded user marked failed, as a crashed extraction leaves it, so the retry
    route answers 202 once (then 409: it is queued again and done) and not only 404 or 409."""
    turn = {"session_id": "contract-session", "turn_id": "contract-failed-turn", "user_input": "I play the cello."}
    status, body = http.post(f"/users/{USER}/turns", turn)
    assert status in (200, 202), body
    manage(
        [
            "shell",
            "-c",
            "from facts.models import Turn, TurnState; "
            "Turn.objects.filter(turn_id='contract-failed-turn').update(state=TurnState.FAILED, last_error='seeded')",
        ],
        env,
    )
    return {"user_id": USER, "turn_id": "contract-failed-turn"}


@pytest.fixture(scope="module")
def live_api(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("openapi-contract")
    env = clean_env(
        DATABASE_URL=service_database_url(tmp),
        MEMORY_VAR_DIR=str(tmp),
        # No broker or workers here: extraction and projections run inside the request.
        CELERY_TASK_ALWAYS_EAGER="1",
        # Endpoints on 127.0.0.1 (the seeded ones; nothing is sent), and any host the schema
        # allows taken without a lookup: the address guard is tested in tests/webhooks.
        MEMORY_WEBHOOK_ALLOW_PRIVATE_NETWORKS="1",
    )
    migrate(env)
    key = re.search(r"^api_key=(\S+)$", manage(["create_tenant", "contract"], env), re.MULTILINE).group(1)
    procs: list[Proc] = []
    try:
        web, base = start_web(env, tmp)
        procs.append(web)
        http = Http(base, key, timeout=300)
        ids = _seed(http)
        ids["POST /users/{user_id}/turns/{turn_id}/retry"] = _failed_turn(http, env)
        ids["always"] = ["POST /users/{user_id}/turns/{turn_id}/retry", "DELETE /webhooks/{endpoint_id}"]
        yield http, ids, tmp
    finally:
        for proc in procs:
            proc.stop()


@pytest.mark.integration
@pytest.mark.slow
def test_every_route_answers_as_its_openapi_schema_says(live_api):
    http, known_ids, tmp = live_api
    command = [
        str(BIN / "st"),
        "run",
        f"{http.base}/api/v1/openapi.json",
        "-H",
        f"Authorization: Bearer {http.key}",
        "--max-examples",
        str(EXAMPLES_PER_ROUTE),
        "--seed",
        str(SEED),
        "--workers",
        "1",
        "--generation-database",
        "none",
        "--request-timeout",
        "60",
        "--no-color",
    ]
    env = clean_env(PYTHONPATH=str(ROOT), SCHEMATHESIS_HOOKS="tests.integration.schemathesis_hooks")
    env["ST_KNOWN_IDS"] = json.dumps(known_ids)
    run = subprocess.run(command, cwd=tmp, env=env, capture_output=True, text=True, timeout=900)
    (tmp / "schemathesis.txt").write_text(run.stdout)  # the whole report, kept with the server's log
    # Shown with `pytest -s`: what was run and the summary line.
    print(run.stdout[run.stdout.rfind("SUMMARY") :])
    # What went wrong, without the progress lines before it (WARNINGS and FAILURES sections).
    found = [run.stdout.find(f" {section} ") for section in ("FAILURES", "WARNINGS")]
    report = run.stdout[min([i for i in found if i >= 0], default=-20000) :]
    assert run.returncode == 0, f"schemathesis found problems:\n{report[:20000]}\n{run.stderr[-3000:]}"
    summary = run.stdout[run.stdout.rfind("SUMMARY") :]
    assert "Tested: " in summary and " failure" not in summary.strip().splitlines()[-1]
    # Warnings too (e.g. an operation that only ever answered 404): each is a route left untested.
    assert "Warnings:" not in summary, f"schemathesis warned:\n{report[:20000]}"
