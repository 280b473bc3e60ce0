"""Settings: metrics, the API's rate limits and their counters, dashboard sign-in, the web server."""

from __future__ import annotations

from core.ratelimit import RATE_FORMS, parse_rate
from memory_service.environment import NOT_A_RATE
from memory_service.settings.base import env
from memory_service.settings.tasks import CELERY_BROKER_URL
from memory_service.web_server import web_server_settings

# Bearer token for the Prometheus endpoint /metrics. Without one, /metrics is refused
# unless METRICS_ALLOW_LOOPBACK is true (then loopback clients may scrape: only safe
# with no reverse proxy on this host, since a proxy's requests come from loopback).
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
METRICS_ALLOW_LOOPBACK = env.bool("METRICS_ALLOW_LOOPBACK", default=False)

# --- API: rate limits per key and route class (docs/api.md) ---------------------------
# "N/sec", "N/min", "N/hour" or "N/day"; "off" (or empty) turns a class off.


def _rate_limit(var: str, default: str) -> str:
    """A limit parse_rate takes, checked now: a bad one used to fail every request (HTTP 500)."""
    if var in env.ENVIRON and not env.ENVIRON[var].strip():
        return "off"  # empty is off here, not unset
    return env.checked(var, default, RATE_FORMS, parse_rate, NOT_A_RATE)


MEMORY_RATE_LIMIT_READ = _rate_limit("MEMORY_RATE_LIMIT_READ", "1200/min")
MEMORY_RATE_LIMIT_WRITE = _rate_limit("MEMORY_RATE_LIMIT_WRITE", "1200/min")
MEMORY_RATE_LIMIT_RECALL = _rate_limit("MEMORY_RATE_LIMIT_RECALL", "1200/min")
# Counters are shared by all server processes: in Redis when one is configured, else
# in a file under var/ that every process on this host maps (core/counters.py,
# MEMORY_RATE_LIMIT_SLOTS windows at once). Neither takes the database's write lock.
_redis_url = env.url("REDIS_URL", "", {"redis", "rediss", "unix"}, "redis://:password@10.0.0.1:6379/1") or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else ""
)
MEMORY_RATE_LIMIT_SLOTS = env.int("MEMORY_RATE_LIMIT_SLOTS", default=16_384, minimum=1)
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
if _redis_url:
    CACHES["ratelimit"] = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _redis_url}

# --- Dashboard sign-in: failed passwords per window (docs/deployment.md) ---------------
# Counted in the same counters as the API limits. Once an account, or a client address,
# has this many failures in the window, even the right password is refused (429) until
# the window ends. Same format as the API limits; "off" turns one off.
MEMORY_LOGIN_FAILURES_PER_ACCOUNT = _rate_limit("MEMORY_LOGIN_FAILURES_PER_ACCOUNT", "10/hour")
MEMORY_LOGIN_FAILURES_PER_ADDRESS = _rate_limit("MEMORY_LOGIN_FAILURES_PER_ADDRESS", "50/hour")

# --- Web server: gunicorn.conf.py reads the same WEB_* variables the same way ---------
WEB_SERVER = web_server_settings(env)
# Peers whose X-Forwarded-For names the client (the proxy; gunicorn trusts the same list).
# Addresses or networks; "*" trusts any peer.
MEMORY_TRUSTED_PROXIES = [entry.strip() for entry in WEB_SERVER["forwarded_allow_ips"].split(",") if entry.strip()]
# Read by scripts/run.sh (`make run`): the pause before it starts an exited worker again.
WORKER_RESTART_SECONDS = env.float("WORKER_RESTART_SECONDS", default=2.0, minimum=0)
# Read by bench/throwaway.py: its throwaway databases go on this PostgreSQL server.
MEMORY_BENCH_POSTGRES = env.url(
    "MEMORY_BENCH_POSTGRES", "", {"postgresql", "postgres"}, "postgresql://postgres@/postgres?host=/run/pg"
)

# --- Request path: buffered log rows and the API-key cache (docs/measurements.md) ---
MEMORY_LOG_BUFFER_ROWS = env.int("MEMORY_LOG_BUFFER_ROWS", default=200, minimum=0)
MEMORY_LOG_BUFFER_SECONDS = env.float("MEMORY_LOG_BUFFER_SECONDS", default=2.0, minimum=0)
MEMORY_API_KEY_CACHE_SECONDS = env.float("MEMORY_API_KEY_CACHE_SECONDS", default=30.0, minimum=0)
