"""Extraction across real processes: HTTP -> Redis -> db worker -> LLM worker (no database) -> db worker."""

from __future__ import annotations

import time

import psycopg
import pytest

from bench.scripted_llm import rules_responder
from tests.integration.conftest import DB_WORKER_APP, DB_WORKER_PROCESSES, VISIBILITY_TIMEOUT
from tests.integration.stack import wait_for

pytestmark = pytest.mark.integration

FINISHED = {"done", "skipped", "failed"}


def _wait_finished(stack, user_id, turn_id, timeout=45):
    try:
        return wait_for(lambda: _finished(stack, user_id, turn_id), timeout, 0.2, f"turn {turn_id}")
    except TimeoutError:
        raise AssertionError(
            f"turn {turn_id} did not finish.\n--- db worker ---\n{stack.db_worker.log()}\n"
            f"--- llm worker ---\n{stack.llm_worker.log()}"
        ) from None


def _live_texts(stack, user_id):
    status, body = stack.http.get(f"/users/{user_id}/facts")
    assert status == 200, body
    return sorted(f["text"] for f in body["items"])


def test_turns_posted_over_http_come_out_as_facts_with_llm_calls_on_a_worker_without_the_database(stack):
    turns = [
        ("ana", "s1", "a1", "My name is Ana and I live in Lisbon."),
        ("ana", "s1", "a2", "Thanks!"),
        ("ana", "s2", "a3", "I work at Acme and I use Neovim."),
        ("ben", "s1", "b1", "I'm allergic to peanuts."),
    ]
    calls_before = len(stack.llm.requests)
    for user_id, session, turn_id, text in turns:
        status, body = stack.http.post(
            f"/users/{user_id}/turns", {"session_id": session, "turn_id": turn_id, "user_input": text}
        )
        assert status == 202 and body["status"] == "queued" and body["extractor"] == "llm", body

    states = {turn_id: _wait_finished(stack, user_id, turn_id) for user_id, _, turn_id, _ in turns}
    assert {t: s["status"] for t, s in states.items()} == {"a1": "done", "a2": "skipped", "a3": "done", "b1": "done"}
    for turn_id in ("a1", "a3", "b1"):
        state = states[turn_id]
        assert state["extractor"].startswith("llm:"), state  # the db worker has no key: the LLM worker called
        assert state["queue_wait_ms"] >= 0 and state["processing_ms"] >= state["llm_ms"] > 0
    assert _live_texts(stack, "ana") == [
        "User lives in Lisbon.",
        "User uses Neovim.",
        "User works at Acme.",
        "User's name is Ana.",
    ]
    assert _live_texts(stack, "ben") == ["User is allergic to peanuts."]
    assert len(stack.llm.requests) - calls_before == 3  # the greeting made no call

    # The LLM worker never touched a database: none open, none created in its empty var folder.
    assert not any(".sqlite3" in path for path in stack.llm_worker.open_files())
    assert not list(stack.llm_dir.rglob("*.sqlite3*"))
    log = stack.llm_worker.log()
    assert "Task facts.call_extractor[" in log and "Task facts.apply_extraction[" not in log


def test_the_db_worker_keeps_its_database_connections_from_task_to_task(stack):
    """Celery's Django fixup closes every connection around each task unless told not to: on
    PostgreSQL a new server process per task, most of the primary's CPU in the many-hosts drill
    (docs/measurements.md §20). The worker keeps them, as a web thread does: while 8 turns go
    through, it opens at most one connection per pool process (6 or more seen before)."""
    if not stack.db_url.startswith("postgres"):
        pytest.skip("reads the server's connections (pg_stat_activity); SQLite has no server")
    tasks_before = stack.db_worker.log().count("succeeded in")
    turns = [(f"c{i}", f"I keep a notebook about topic number {i}.") for i in range(8)]
    opened: set[int] = set()
    with psycopg.connect(stack.db_url, autocommit=True) as conn:
        began = conn.execute("SELECT clock_timestamp()").fetchone()[0]
        for turn_id, text in turns:
            body = {"session_id": "s1", "turn_id": turn_id, "user_input": text}
            status, answer = stack.http.post("/users/cora/turns", body)
            assert status == 202, answer
        for turn_id, _ in turns:
            while not _finished(stack, "cora", turn_id):
                opened |= _worker_connections_since(conn, began)
                time.sleep(0.02)
        opened |= _worker_connections_since(conn, began)
        # And no more than that in all: the worker's master closed the one it read the live model on.
        held = _worker_connections_since(conn, None)
    assert stack.db_worker.log().count("succeeded in") - tasks_before >= len(turns)  # an apply per turn, and more
    assert len(opened) <= DB_WORKER_PROCESSES, opened
    assert len(held) <= DB_WORKER_PROCESSES, held


def _finished(stack, user_id: str, turn_id: str) -> dict | None:
    """The turn's state once it is final, else None."""
    status, body = stack.http.get(f"/users/{user_id}/turns/{turn_id}")
    return body if status == 200 and body["status"] in FINISHED else None


def _worker_connections_since(conn: psycopg.Connection, began: object) -> set[int]:
    """The server processes of the db worker's connections opened after `began` (None: all)."""
    rows = conn.execute(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = %s"
        " AND backend_start > coalesce(%s, '-infinity'::timestamptz)",
        [DB_WORKER_APP, began],
    )
    return {pid for (pid,) in rows}


def test_a_worker_killed_in_the_middle_of_a_turn_is_replaced_and_the_turn_completes_once(stack):
    # The model hangs on this call long enough to kill the worker that made it.
    hang = rules_responder({"messages": [{"role": "user", "content": "New messages:\nUser: I live in Kyoto."}]})
    hang.delay = 60
    stack.llm.script(hang)
    calls_before = len(stack.llm.requests)
    status, _ = stack.http.post(
        "/users/cleo/turns", {"session_id": "s1", "turn_id": "c1", "user_input": "I live in Kyoto."}
    )
    assert status == 202
    assert stack.llm.wait_for_requests(calls_before + 1, timeout=30), stack.llm_worker.log()
    delivered = time.monotonic()
    stack.llm_worker.kill()
    _, state = stack.http.get("/users/cleo/turns/c1")
    assert state["status"] == "extracting"

    # A replacement worker; Redis hands it the unacknowledged task once its visibility timeout is over.
    time.sleep(max(0.0, VISIBILITY_TIMEOUT + 0.5 - (time.monotonic() - delivered)))
    stack.start_llm_worker("llm-2")
    state = _wait_finished(stack, "cleo", "c1", timeout=60)

    assert state["status"] == "done" and state["attempts"] == 1
    assert len(state["outcome"]["added"]) == 1 and state["outcome"]["duplicates"] == []
    status, body = stack.http.get("/users/cleo/facts?include_retired=true")
    assert [(f["text"], f["mention_count"]) for f in body["items"]] == [("User lives in Kyoto.", 1)]
    assert len(stack.llm.requests) - calls_before == 2  # the killed call, then the replacement's
