"""kill -9 of one of two workers on Redis while 500 turns are in flight: once a worker runs
again, every turn is finished and no fact is stored or counted twice.

A message the killed worker had received is redelivered by Redis after the visibility
timeout. One it was taking from Redis at the instant of the kill, before kombu recorded it
as unacknowledged, is gone from the broker (seen once: a turn left `extracting`); the
periodic sweep re-queues such a turn, so the surviving worker runs beat as a deployment's
`db` worker does, with a short stuck time.

Real processes: redis-server, the web server, Celery workers (offline rules extractor); the
embeddings come from the scripted OpenAI-compatible server so that no worker spends its time
loading the local model (what a fact means does not matter here).
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.fake_llm import FakeLLM, Reply
from tests.integration.conversation import TURNS_PER_USER, scripted_turns
from tests.integration.stack import ROOT, Http, clean_env, manage, start_redis, start_web, start_worker
from tests.migrated import migrate

# About the embedded broker and the worker processes, the same whatever the database engine.
pytestmark = [pytest.mark.integration, pytest.mark.sqlite_only]

TURNS = 500
FACTS_PER_USER = 5
VISIBILITY_TIMEOUT = 4  # seconds before Redis hands a dead worker's unacknowledged task to another
FINISH_WITHIN_SECONDS = 240
# The sweep re-queues a turn queued or extracting this long: longer than 500 turns wait in
# the queue here, shorter than the time left after the kill.
STUCK_SECONDS = 90
_COUNTS = """
import json
from django.db.models import Count
from facts.models import Fact, Turn
facts = Fact.objects.all()
print(json.dumps({
    "turns": dict(Turn.objects.values_list("state").annotate(n=Count("id"))),
    "facts": facts.count(),
    "distinct": facts.values("user", "text").distinct().count(),
    "mentions": sorted(set(facts.values_list("mention_count", flat=True))),
}))
"""


def embeddings_responder(request: dict) -> Reply:
    """Deterministic 384-d vectors from the text's hash (the shape of the local model's)."""
    if not request["_path"].endswith("/embeddings"):
        return FakeLLM.error(404, "only embeddings are served here")
    data = []
    for index, text in enumerate(request["input"]):
        digest = hashlib.sha256(text.encode()).digest()
        data.append({"object": "embedding", "index": index, "embedding": [b / 255 - 0.5 for b in digest * 12]})
    return Reply(body={"object": "list", "data": data, "model": request["model"], "usage": {"total_tokens": 1}})


def counts(env: dict) -> dict:
    return json.loads(manage(["shell", "-c", _COUNTS], env).strip().splitlines()[-1])


@pytest.fixture
def stack(tmp_path):
    embedder = FakeLLM(responder=embeddings_responder)
    procs = []
    try:
        redis, broker_url = start_redis(tmp_path)
        procs.append(redis)
        env = clean_env(
            DATABASE_URL=f"sqlite:///{tmp_path / 'memory.sqlite3'}",
            MEMORY_VAR_DIR=str(tmp_path),
            CELERY_BROKER_URL=broker_url,
            CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT),
            MEMORY_EMBEDDER="openai",
            MEMORY_EMBEDDING_MODEL="fake-embedding",
            MEMORY_EMBEDDING_BASE_URL=embedder.url,
            MEMORY_TURN_SWEEP_SECONDS="5",
            MEMORY_TURN_STUCK_SECONDS=str(STUCK_SECONDS),
        )
        migrate(env)
        key = re.search(r"^api_key=(\S+)$", manage(["create_tenant", "killed"], env), re.MULTILINE).group(1)
        web, base = start_web(env, tmp_path)
        procs.append(web)

        def worker(name: str, *extra: str):
            proc = start_worker(name, "db,llm,embed", cwd=ROOT, env=env, log_dir=tmp_path, concurrency=2, extra=extra)
            procs.append(proc)
            return proc

        yield env, Http(base, key), worker
    finally:
        for proc in reversed(procs):
            proc.stop()
        embedder.close()


def _held_tasks(log: str) -> set[str]:
    """Tasks the worker had received and not finished when it died."""
    received = set(re.findall(r"Task [\w.]+\[([\w-]+)\] received", log))
    return received - set(re.findall(r"Task [\w.]+\[([\w-]+)\] (?:succeeded|retry|raised)", log))


def _post_all(http: Http, turns, failures: list) -> None:
    def post(turn):
        status, body = http.post(f"/users/{turn.user_id}/turns", turn.body())
        if status != 202:
            failures.append((turn, status, body))

    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(post, turns))


def test_a_worker_killed_with_500_turns_in_flight_loses_no_turn_and_doubles_no_fact(stack):
    env, http, worker = stack
    first, second = worker("w1"), worker("w2", "-B", "--schedule", str(env["MEMORY_VAR_DIR"] + "/beat-schedule"))
    failures: list = []
    poster = threading.Thread(target=_post_all, args=(http, scripted_turns(TURNS, FACTS_PER_USER), failures))
    poster.start()

    deadline = time.monotonic() + FINISH_WITHIN_SECONDS
    while sum(counts(env)["turns"].get(s, 0) for s in ("done", "skipped")) < 100:
        assert time.monotonic() < deadline, f"no progress:\n{first.log()}"
        time.sleep(1)
    # Killed at a moment when it holds tasks: a worker that has just caught up with the poster
    # holds none, and its kill would prove nothing (once seen in CI).
    while len(_held_tasks(first.log_path.read_text())) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    first.kill()  # SIGKILL to the main process and its pool: nothing is acknowledged or given back
    assert _held_tasks(first.log_path.read_text()), "the killed worker held no task: the kill proved nothing"
    time.sleep(2)
    worker("w1-again")  # "then a worker runs again"
    poster.join(timeout=FINISH_WITHIN_SECONDS)
    assert not poster.is_alive() and failures == [], failures[:3]

    finished = {}
    while time.monotonic() < deadline:
        finished = counts(env)
        if sum(finished["turns"].values()) == TURNS and set(finished["turns"]) <= {"done", "skipped"}:
            break
        time.sleep(2)
    users = TURNS // TURNS_PER_USER
    facts = users * FACTS_PER_USER
    assert finished["turns"] == {"done": facts, "skipped": TURNS - facts}, (finished, second.log())
    assert finished["facts"] == finished["distinct"] == facts
    assert finished["mentions"] == [1]
    assert second.popen.poll() is None
