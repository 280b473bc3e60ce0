"""What the drill checks after each fault, read from the primary and through the proxy."""

from __future__ import annotations

import threading
import time

import psycopg

# A turn's final states. `withheld` too: a turn the person's words asked not to be remembered
# (issue 37's consent reading) is born so and never queued; counted as unfinished, every fault
# after such a turn "failed to recover" and the end waited out its whole limit.
FINISHED = ("done", "skipped", "withheld")


class Store:
    """The drill's reads of the primary, on one connection kept open (opened again after a failure,
    as after the primary's restart). A connection per read started a backend per read, twice a
    second while a fault recovers, each building its caches over every partition it read: load on
    the host under test that no client of the service puts there (docs/measurements.md §20)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._conn: psycopg.Connection | None = None
        self._lock = threading.Lock()

    def _rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self._lock:
            try:
                return self._read(sql, params)
            except psycopg.Error:
                self._close()
                return self._read(sql, params)

    def _read(self, sql: str, params: tuple) -> list[tuple]:
        if self._conn is None or self._conn.closed:
            self._conn = psycopg.connect(self.url, connect_timeout=5, autocommit=True)
        with self._conn.cursor() as cur:
            cur.execute(sql, params)
            return cur.fetchall()

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self._conn = None

    def close(self) -> None:
        with self._lock:
            self._close()

    def turn_states(self) -> dict[tuple[str, str], tuple[str, int]]:
        rows = self._rows(
            "SELECT u.external_id, t.turn_id, t.state, t.attempts FROM facts_turn t "
            "JOIN facts_memoryuser u ON u.id = t.user_id"
        )
        return {(user, turn): (state, attempts) for user, turn, state, attempts in rows}

    def doubled_facts(self) -> int:
        """Groups of two or more live facts with the same text for one user."""
        return self._rows(
            "SELECT count(*) FROM (SELECT user_id, text_hash FROM facts_fact "
            "WHERE status = 'active' AND valid_to IS NULL GROUP BY 1, 2 HAVING count(*) > 1) d"
        )[0][0]

    def marker_mentions(self, markers: list[str]) -> dict[str, int]:
        """A marker fact's mention count: 1 when its turn was applied once."""
        if not markers:
            return {}
        rows = self._rows(
            "SELECT text, mention_count FROM facts_fact WHERE text = ANY(%s)",
            ([f"User uses {m}." for m in markers],),
        )
        return {text[len("User uses ") : -1]: count for text, count in rows}

    def unindexed(self, user: str) -> int:
        """The user's facts still in the index's outbox on the primary."""
        return self._rows(
            "SELECT count(*) FROM recall_pendingindex p JOIN facts_memoryuser u ON u.id = p.user_id "
            "WHERE u.external_id = %s AND p.kind = 'fact'",
            (user,),
        )[0][0]

    def replica_lag_seconds(self, replica_url: str) -> float | None:
        with psycopg.connect(replica_url, connect_timeout=5) as conn, conn.cursor() as cur:
            cur.execute("SELECT extract(epoch FROM now() - pg_last_xact_replay_timestamp())")
            value = cur.fetchone()
        return None if value is None or value[0] is None else float(value[0])


def unfinished(store: Store, acked: list[tuple[str, str]]) -> list[tuple[str, str]]:
    states = store.turn_states()
    return [key for key in acked if states.get(key, ("missing", 0))[0] not in FINISHED]


def marker_recalled(api, user: str, marker: str, patience: float = 10.0) -> bool:
    deadline = time.monotonic() + patience
    while True:
        status, body = api.call("POST", f"/users/{user}/recall", {"query": marker, "k": 5})
        if status == 200 and any(marker in (item.get("fact") or {}).get("text", "") for item in body["items"]):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)


def read_your_writes(api, store: Store, user: str, n: int) -> tuple[bool, bool] | None:
    """Store a fact, recall it at once (the next request): found? If not, wait until the primary
    has indexed it (a web host leaves the index to a db worker: recall/indexer.py), and recall
    at once again: found then? Only the second can tell a replica that lags from an index
    that is not written yet. None: the write was refused (an API error the drill counts)."""
    word = f"rywprobe{n}"
    status, _ = api.call("POST", f"/users/{user}/facts", {"text": f"User's probe word is {word}."})
    if status not in (200, 201):
        return None
    if _recalls(api, user, word):
        return True, True
    deadline = time.monotonic() + 120
    while store.unindexed(user) and time.monotonic() < deadline:
        time.sleep(0.05)
    return False, _recalls(api, user, word)


def _recalls(api, user: str, word: str) -> bool:
    status, body = api.call("POST", f"/users/{user}/recall", {"query": word, "k": 5})
    return status == 200 and any(word in (item.get("fact") or {}).get("text", "") for item in body["items"])
