"""Client and AsyncClient: every route of /api/v1 as a typed method, on httpx.

Both share the routes (`_Routes` builds each request once); only sending differs. A request is
sent again, with exponential backoff, after a 429 (waiting `Retry-After`) or a connection that
could not be made, and, for requests that are safe to repeat, after a timeout or a 502/503/504.
A turn is safe to repeat because the client gives it a `turn_id` before the first try: the
service answers a second post of the same turn with the stored one (200), never a second turn.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import quote

import httpx
from pydantic import TypeAdapter

from memory_service_client import models
from memory_service_client.errors import ApiError, error_for

DEFAULT_BASE_URL = "http://127.0.0.1:8000"
RETRY_STATUSES = frozenset({502, 503, 504})
PENDING_TURN = frozenset({"queued", "extracting"})


@dataclass(frozen=True)
class Retry:
    """How often and how long to try again: waits of backoff, 2x backoff, ... up to max_backoff."""

    attempts: int = 4
    backoff: float = 0.25
    max_backoff: float = 8.0

    def wait(self, attempt: int, retry_after: float | None = None) -> float:
        if retry_after is not None:
            return min(float(retry_after), self.max_backoff * 4)
        base = min(self.backoff * 2**attempt, self.max_backoff)
        return base * (0.5 + random.random() / 2)  # jitter: clients that failed together spread out


@dataclass(frozen=True)
class Call:
    method: str
    path: str
    params: dict[str, Any] | None = None
    json: Any = None
    model: Any = None  # a pydantic model or type to parse the answer into; None: the JSON as is
    repeatable: bool = True  # sending it twice changes nothing more than sending it once
    expect_body: bool = field(default=True)


def _seg(value: Any) -> str:
    return quote(str(value), safe="")


def _iso(value: datetime | str | None) -> str | None:
    return value.isoformat() if isinstance(value, datetime) else value


def _drop_none(values: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


class _Routes:
    """The requests of every route; `_send` (sync or async) sends them."""

    def _send(self, call: Call) -> Any:  # pragma: no cover - defined by Client and AsyncClient
        raise NotImplementedError

    def health(self):
        return self._send(Call("GET", "/health"))

    # --- turns -------------------------------------------------------------------------------
    def post_turn(
        self,
        user_id: str,
        user_input: str,
        *,
        session_id: str,
        assistant_response: str = "",
        turn_id: str | None = None,
        occurred_at: datetime | str | None = None,
        **extra: Any,
    ):
        """Post a finished turn (202, extracted in the background). The turn_id is chosen here when
        not given, so a retried post is the same turn (answered 200), never a second one."""
        body = _drop_none(
            {
                "session_id": session_id,
                "turn_id": turn_id or uuid.uuid4().hex,
                "user_input": user_input,
                "assistant_response": assistant_response,
                "occurred_at": _iso(occurred_at),
                **extra,
            }
        )
        return self._send(Call("POST", f"/users/{_seg(user_id)}/turns", json=body, model=models.TurnAccepted))

    def get_turn(self, user_id: str, turn_id: str):
        return self._send(Call("GET", f"/users/{_seg(user_id)}/turns/{_seg(turn_id)}", model=models.Turn))

    def retry_turn(self, user_id: str, turn_id: str):
        path = f"/users/{_seg(user_id)}/turns/{_seg(turn_id)}/retry"
        return self._send(Call("POST", path, model=models.TurnAccepted, repeatable=False))

    def end_session(self, user_id: str, session_id: str):
        path = f"/users/{_seg(user_id)}/sessions/{_seg(session_id)}/end"
        return self._send(Call("POST", path, model=models.SessionEnded))

    # --- facts -------------------------------------------------------------------------------
    def store_fact(self, user_id: str, text: str, **fields: Any):
        """Store a fact (201; a verbatim duplicate answers the existing fact, so a retry is harmless)."""
        body = _drop_none({"text": text, **{k: _iso(v) if isinstance(v, datetime) else v for k, v in fields.items()}})
        return self._send(Call("POST", f"/users/{_seg(user_id)}/facts", json=body, model=models.Fact))

    def list_facts(
        self,
        user_id: str,
        *,
        category: str | None = None,
        status: str | None = None,
        include_retired: bool = False,
        limit: int = 50,
        cursor: str | None = None,
    ):
        params = _drop_none(
            {"category": category, "status": status, "limit": limit, "cursor": cursor}
            | ({"include_retired": "true"} if include_retired else {})
        )
        return self._send(Call("GET", f"/users/{_seg(user_id)}/facts", params=params, model=models.FactPage))

    def get_fact(self, fact_id: Any):
        return self._send(Call("GET", f"/facts/{_seg(fact_id)}", model=models.Fact))

    def update_fact(self, fact_id: Any, text: str, **fields: Any):
        """Supersede: the answer is the NEW fact (a new id); the old one is retired and kept in history."""
        body = _drop_none({"text": text, **fields})
        return self._send(Call("PATCH", f"/facts/{_seg(fact_id)}", json=body, model=models.Fact, repeatable=False))

    def forget_fact(self, fact_id: Any, *, withdraw_turn: bool = False):
        params = {"withdraw_turn": "true"} if withdraw_turn else None
        call = Call("DELETE", f"/facts/{_seg(fact_id)}", params=params, repeatable=False, expect_body=False)
        return self._send(call)

    def forget_key(self, user_id: str, key: str, *, withdraw_turn: bool = False):
        params = {"key": key, **({"withdraw_turn": "true"} if withdraw_turn else {})}
        return self._send(Call("DELETE", f"/users/{_seg(user_id)}/facts", params=params, model=models.Deleted))

    def fact_history(self, fact_id: Any):
        return self._send(Call("GET", f"/facts/{_seg(fact_id)}/history", model=list[models.HistoryEntry]))

    # --- recall, context, profile ------------------------------------------------------------
    def recall(
        self,
        user_id: str,
        query: str,
        *,
        k: int = 20,
        mode: str = "hybrid",
        sources: tuple[str, ...] | list[str] = ("facts",),
        budget_chars: int | None = None,
        as_of: datetime | str | None = None,
    ):
        """Ranked facts (and, with sources=("facts", "episodes"), past turns) for a query."""
        body = _drop_none(
            {
                "query": query,
                "k": k,
                "mode": mode,
                "sources": list(sources),
                "budget_chars": budget_chars,
                "as_of": _iso(as_of),
            }
        )
        return self._send(Call("POST", f"/users/{_seg(user_id)}/recall", json=body, model=models.RecallAnswer))

    def context(self, user_id: str, max_tokens: int, query: str | None = None):
        body = _drop_none({"query": query, "max_tokens": max_tokens})
        return self._send(Call("POST", f"/users/{_seg(user_id)}/context", json=body, model=models.Context))

    def profile(self, user_id: str):
        return self._send(Call("GET", f"/users/{_seg(user_id)}/profile"))

    # --- privacy ---------------------------------------------------------------------------
    def export_user(self, user_id: str):
        return self._send(Call("GET", f"/users/{_seg(user_id)}/export"))

    def erase_user(self, user_id: str):
        """Erase the user and everything held about them (admin scope); the receipt proves it."""
        return self._send(Call("DELETE", f"/users/{_seg(user_id)}", model=models.Receipt, repeatable=False))


class _Base(_Routes):
    def __init__(self, api_key: str, base_url: str, retry: Retry | None, timeout: float):
        self.api_key = api_key
        self.base_url = base_url.rstrip("/") + "/api/v1"
        self.retry = retry or Retry()
        self.timeout = timeout

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}", "User-Agent": "memory-service-client/0.1"}

    def _outcome(self, call: Call, response: httpx.Response) -> tuple[Any, float | None, bool]:
        """(parsed answer, seconds to wait before trying again or None, whether to try again)."""
        if response.status_code < 400:
            if not call.expect_body or response.status_code == 204:
                return None, None, False
            data = response.json()
            return (TypeAdapter(call.model).validate_python(data) if call.model else data), None, False
        try:
            body = response.json()
        except ValueError:
            body = {"detail": response.text[:500]}
        error = error_for(response.status_code, body, method=call.method, path=call.path)
        if response.status_code == 429:
            header = response.headers.get("Retry-After")
            return error, float(header) if header else error.retry_after, True
        return error, None, call.repeatable and response.status_code in RETRY_STATUSES

    @staticmethod
    def _transport_retry(call: Call, exc: httpx.TransportError) -> bool:
        # Nothing reached the server when the connection could not be made: always safe.
        return isinstance(exc, httpx.ConnectError) or call.repeatable


class Client(_Base):
    """The synchronous client. `with Client(key) as c: c.recall("alice", "where does she live?")`."""

    def __init__(
        self,
        api_key: str,
        base_url: str = DEFAULT_BASE_URL,
        *,
        retry: Retry | None = None,
        timeout: float = 30.0,
        http: httpx.Client | None = None,
    ):
        super().__init__(api_key, base_url, retry, timeout)
        self.http = http or httpx.Client(timeout=timeout)
        self._sleep = time.sleep

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.http.close()

    def _send(self, call: Call) -> Any:
        for attempt in range(self.retry.attempts):
            last = attempt == self.retry.attempts - 1
            try:
                response = self.http.request(
                    call.method, self.base_url + call.path, params=call.params, json=call.json, headers=self._headers()
                )
            except httpx.TransportError as exc:
                if last or not self._transport_retry(call, exc):
                    raise
                self._sleep(self.retry.wait(attempt))
                continue
            answer, retry_after, again = self._outcome(call, response)
            if not isinstance(answer, ApiError):
                return answer
            if last or not again:
                raise answer
            self._sleep(self.retry.wait(attempt, retry_after))
        raise AssertionError("unreachable")

    def iter_facts(self, user_id: str, **filters: Any) -> Iterator[models.Fact]:
        """Every fact of the user (live ones unless filtered otherwise), following next_cursor."""
        cursor = None
        while True:
            page = self.list_facts(user_id, cursor=cursor, **filters)
            yield from page.items
            if not (cursor := page.next_cursor):
                return

    def wait_for_turn(self, user_id: str, turn_id: str, *, timeout: float = 60.0, interval: float = 0.2):
        """The turn once extraction has finished with it (done, skipped or failed)."""
        deadline = time.monotonic() + timeout
        while (turn := self.get_turn(user_id, turn_id)).status in PENDING_TURN and time.monotonic() < deadline:
            self._sleep(interval)
        return turn


class AsyncClient(_Base):
    """The asynchronous client: the same methods, awaited. `async with AsyncClient(key) as c: ...`."""

    def __init__(
        self,
        api_key: str,
        base_url: str = DEFAULT_BASE_URL,
        *,
        retry: Retry | None = None,
        timeout: float = 30.0,
        http: httpx.AsyncClient | None = None,
    ):
        super().__init__(api_key, base_url, retry, timeout)
        self.http = http or httpx.AsyncClient(timeout=timeout)
        self._sleep = asyncio.sleep

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.http.aclose()

    async def _send(self, call: Call) -> Any:
        for attempt in range(self.retry.attempts):
            last = attempt == self.retry.attempts - 1
            try:
                response = await self.http.request(
                    call.method, self.base_url + call.path, params=call.params, json=call.json, headers=self._headers()
                )
            except httpx.TransportError as exc:
                if last or not self._transport_retry(call, exc):
                    raise
                await self._sleep(self.retry.wait(attempt))
                continue
            answer, retry_after, again = self._outcome(call, response)
            if not isinstance(answer, ApiError):
                return answer
            if last or not again:
                raise answer
            await self._sleep(self.retry.wait(attempt, retry_after))
        raise AssertionError("unreachable")

    async def iter_facts(self, user_id: str, **filters: Any) -> AsyncIterator[models.Fact]:
        cursor = None
        while True:
            page = await self.list_facts(user_id, cursor=cursor, **filters)
            for fact in page.items:
                yield fact
            if not (cursor := page.next_cursor):
                return

    async def wait_for_turn(self, user_id: str, turn_id: str, *, timeout: float = 60.0, interval: float = 0.2):
        deadline = time.monotonic() + timeout
        while (turn := await self.get_turn(user_id, turn_id)).status in PENDING_TURN and time.monotonic() < deadline:
            await self._sleep(interval)
        return turn
