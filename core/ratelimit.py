"""Fixed-window request limits per API key and route class (read, write, recall).

Counted in Redis when one is configured (the `ratelimit` cache), else in a file
every process on this host maps (core.counters), so every server process
sees the same counts and no request takes SQLite's write lock. The check runs during
authentication, before any handler: a refused request writes nothing. See
docs/api.md, "Rate limits".
"""

from __future__ import annotations

import contextlib
import math
import re
import time
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest

from core import counters
from core.errors import RateLimited

PERIOD_SECONDS = {"s": 1, "sec": 1, "second": 1, "min": 60, "minute": 60, "h": 3600, "hour": 3600, "day": 86400}
RATE_PATTERN = re.compile(r"^\s*(\d+)\s*/\s*([a-z]+)\s*$")
RATE_FORMS = "N/sec, N/min, N/hour, N/day or off"
RECALL_SUFFIXES = ("/recall", "/context", "/memories/search")  # the last: mem0's search
# POSTs that only read: mem0's list of memories takes its filters in a body.
READING_POSTS = ("/v3/memories",)


@dataclass(frozen=True)
class Rate:
    requests: int
    seconds: int


@lru_cache(maxsize=16)
def parse_rate(text: str) -> Rate | None:
    """`"600/min"` -> Rate(600, 60); "off" or "" -> None (no limit)."""
    if text.strip().lower() in ("", "off", "none"):
        return None
    match = RATE_PATTERN.match(text.lower())
    if not match or match.group(2) not in PERIOD_SECONDS or int(match.group(1)) < 1:
        raise ImproperlyConfigured(f"Bad rate limit {text!r}: use {RATE_FORMS}.")
    return Rate(int(match.group(1)), PERIOD_SECONDS[match.group(2)])


def route_class(request: HttpRequest) -> str:
    """read, recall or write, by method and path: a route that needs only the read scope is never
    counted as a write (docs/api.md, "Rate limits")."""
    path = request.path_info.rstrip("/")
    if request.method in ("GET", "HEAD", "OPTIONS") or (request.method == "POST" and path in READING_POSTS):
        return "read"
    if path.endswith(RECALL_SUFFIXES):
        return "recall"
    return "write"


def check_rate(key_hash: str, request: HttpRequest, kind: str | None = None) -> None:
    """Count this request against its key's window; raise RateLimited when over.

    `kind` is the route class when the path and method do not tell it (/mcp, where
    the JSON-RPC body says what a call does)."""
    kind = kind or route_class(request)
    rate = parse_rate(getattr(settings, f"MEMORY_RATE_LIMIT_{kind.upper()}"))
    if rate is None:
        return
    now = time.time()
    window = int(now // rate.seconds)
    window_end = (window + 1) * rate.seconds
    used = _count(f"rl:{key_hash[:32]}:{kind}:{rate.seconds}:{window}", rate.seconds, window_end)
    if used > rate.requests:
        retry_after = max(1, math.ceil(window_end - now))
        raise RateLimited(
            f"Rate limit of {rate.requests} {kind} requests per {rate.seconds} s reached for this API key.",
            retry_after=retry_after,
        )


@dataclass(frozen=True)
class Taken:
    """One event counted by take_in_window: its number in its window, and that window's key."""

    cache_key: str
    used: int
    retry_after: int  # seconds until the window ends


def take_in_window(name: str, rate: Rate) -> Taken:
    """Count one event (a sign-in attempt) of `name` in the current fixed window of `rate`.

    The count is added first, in one atomic step, and its result decides: a caller that
    refuses every event numbered past `rate.requests` lets at most that many through
    however many arrive at once. Looking first and adding later let 17 of 40 parallel
    wrong passwords through a limit of 10 (issue 33). An event that turns out not to count
    is taken back with give_back."""
    now = time.time()
    window = int(now // rate.seconds)
    window_end = (window + 1) * rate.seconds
    cache_key = f"ev:{name}:{rate.seconds}:{window}"
    used = _count(cache_key, rate.seconds, window_end)
    return Taken(cache_key, used, max(1, math.ceil(window_end - now)))


def give_back(taken: Taken) -> None:
    """Take back an event take_in_window counted, in the window it was counted in."""
    if "ratelimit" not in settings.CACHES:
        counters.for_settings(settings.VAR_DIR, settings.MEMORY_RATE_LIMIT_SLOTS).uncount(taken.cache_key)
        return
    with contextlib.suppress(ValueError):  # the window ended: its count is gone anyway
        caches["ratelimit"].decr(taken.cache_key)


def _count(cache_key: str, seconds: int, window_end: float) -> int:
    if "ratelimit" not in settings.CACHES:
        return counters.for_settings(settings.VAR_DIR, settings.MEMORY_RATE_LIMIT_SLOTS).count(cache_key, window_end)
    cache, timeout = caches["ratelimit"], seconds + 1
    cache.add(cache_key, 0, timeout=timeout)
    try:
        return cache.incr(cache_key)
    except ValueError:  # the entry expired between add and incr
        cache.set(cache_key, 1, timeout=timeout)
        return 1
