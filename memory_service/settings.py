"""One settings file, configured from the environment (see .env.example).

Defaults give the embedded mode: SQLite under var/, a Celery broker on its own SQLite file,
the local embedding model and the offline rule-based extractor.
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

from memory_service.db.postgresql_urls import with_socket_host
from memory_service.private_files import private_file_mode, private_folder, private_text

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("MEMORY_VAR_DIR", BASE_DIR / "var"))
# Databases, broker, secret key: readable by this user only (memory_service/private_files.py).
private_folder(VAR_DIR)

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)


# MEMORY_ENV=production marks a deployment (docs/deployment.md): the secret key
# must then come from the environment, and the HTTPS settings below default on.
MEMORY_ENV = env.str("MEMORY_ENV", default="local")
if MEMORY_ENV not in {"local", "production"}:
    raise ImproperlyConfigured("MEMORY_ENV must be 'local' or 'production'.")
PRODUCTION = MEMORY_ENV == "production"


def _secret_key() -> str:
    """SECRET_KEY from the environment, else (not in production) one generated once per install."""
    if key := env.str("SECRET_KEY", default=""):
        return key
    if PRODUCTION:
        # A key generated on one host would differ between hosts and change on a
        # fresh var/ folder, silently logging everyone out; ask for one instead.
        raise ImproperlyConfigured("MEMORY_ENV=production needs SECRET_KEY (see docs/deployment.md).")
    path = VAR_DIR / "secret_key"
    if not path.exists():
        private_text(path, secrets.token_urlsafe(50))
    private_file_mode(path)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
# Off unless asked for: DEBUG pages show settings and code to whoever gets an error.
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# HTTPS, for a deployment behind a TLS-terminating proxy (docs/deployment.md
# explains each). Off by default so `make run` works over plain http.
# The proxy must set X-Forwarded-Proto and be the only way in to the server.
if env.bool("TRUST_X_FORWARDED_PROTO", default=PRODUCTION):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=PRODUCTION)
# Load balancers and monitors probe the server directly over http.
SECURE_REDIRECT_EXEMPT = [r"^api/v1/health$"]
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=PRODUCTION)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=PRODUCTION)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000 if PRODUCTION else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=PRODUCTION)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=PRODUCTION)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "template_partials",
    "memory_service",
    "facts",
    "recall",
    "profiles",
    "mcp_server",
    "mem0_api",
    "bench",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files without DEBUG and without a separate web server (compressed, cached).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "memory_service.urls"
WSGI_APPLICATION = "memory_service.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------
# The embedded default is a SQLite file; postgresql://user:password@host:port/name (psycopg 3,
# PostgreSQL with pgvector) serves many hosts (docs/deployment.md, "Many hosts").
DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'memory.sqlite3'}"),
}
_ENGINES = {"django.db.backends.sqlite3": "sqlite", "django.db.backends.postgresql": "postgresql"}
DATABASE_ENGINE = _ENGINES.get(DATABASES["default"]["ENGINE"], "")
if not DATABASE_ENGINE:
    raise ImproperlyConfigured(
        "DATABASE_URL must be sqlite:///path/to/file.sqlite3 or postgresql://user:password@host:port/name."
    )
# Keep each server thread's connection open across requests: opening and
# closing a WAL connection per request costs a file open, the sqlite-vec load
# and the PRAGMAs every time, and is the pattern that deadlocked SQLite
# 3.51.0-3.51.1 (memory_service/sqlite_driver.py); a PostgreSQL connection costs
# a login. 0 closes after every request.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=600)
# A PostgreSQL server can restart or drop an idle connection; SQLite's check costs nothing.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASE_ENGINE == "sqlite":
    DATABASES["default"]["ENGINE"] = "memory_service.db"
    DATABASES["default"]["OPTIONS"] = {
        "timeout": env.float("SQLITE_BUSY_TIMEOUT_SECONDS", default=30.0),
        # BEGIN IMMEDIATE takes the write lock up front, so concurrent writers wait
        # on busy_timeout instead of failing with "database is locked" on upgrade.
        "transaction_mode": "IMMEDIATE",
    }
else:
    # postgresql://user@/name?host=/run/socket-folder: the socket folder is the host.
    with_socket_host(DATABASES["default"])
# After an erase or forget on PostgreSQL (memory_service/db/scrub.py): full rewrites the
# user-data tables so deleted rows leave the data files; plain marks their space reusable;
# off leaves it to autovacuum.
MEMORY_POSTGRES_ERASE_VACUUM = env.str("MEMORY_POSTGRES_ERASE_VACUUM", default="full")
if MEMORY_POSTGRES_ERASE_VACUUM not in ("full", "plain", "off"):
    raise ImproperlyConfigured("MEMORY_POSTGRES_ERASE_VACUUM must be full, plain or off.")
# Per connection: SQLite's own page cache, and how much of the file it may map. Mapped
# pages are read in place from the OS cache (shared by every connection and process)
# instead of copied by a read() each: a recall over 1,000 episodes reads about 1,000
# scattered rows (docs/measurements.md §3, "Page cache and mmap"). Address space only.
SQLITE_CACHE_MB = env.int("SQLITE_CACHE_MB", default=2)
SQLITE_MMAP_MB = env.int("SQLITE_MMAP_MB", default=4096)
# A real file for tests too (Django would pick :memory:); the pid keeps
# parallel test runs on one machine apart (on PostgreSQL, a database of their own).
_test_name = (
    str(VAR_DIR / f"test-{os.getpid()}.sqlite3") if DATABASE_ENGINE == "sqlite" else f"test_memory_{os.getpid()}"
)
DATABASES["default"]["TEST"] = {"NAME": env.str("DATABASE_TEST_NAME", default=_test_name)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Auth, i18n, static ---------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard-home"
LOGOUT_REDIRECT_URL = "login"
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"  # filled by `manage.py collectstatic` (scripts/run.sh runs it)
STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise warns on every start while it is missing
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Gzip copies at collectstatic time; no hashed names, so templates render
    # even where collectstatic has not run (tests, `make dev`).
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # User ids in request paths leave the log as keyed hashes (memory_service/logredact.py).
    "filters": {"redact_user_ids": {"()": "memory_service.logredact.RedactUserIds"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["redact_user_ids"]}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}

# --- Celery ---------------------------------------------------------------------
# Queues (docs/design.md §4): `db` reads inputs and applies results on the database host;
# `llm` and `embed` are stateless and may be consumed on other machines.
MEMORY_QUEUE_DB = "db"
MEMORY_QUEUE_LLM = "llm"
MEMORY_QUEUE_EMBED = "embed"
# Declared, so that a worker started without -Q consumes all three; -Q narrows it.
# Each queue has its own direct exchange and routing key, as Celery creates them
# for a queue it was not told about (messages already in Redis stay routable).
_memory_queues = (MEMORY_QUEUE_DB, MEMORY_QUEUE_LLM, MEMORY_QUEUE_EMBED)
CELERY_TASK_QUEUES = [Queue(name, Exchange(name), routing_key=name) for name in _memory_queues]
CELERY_TASK_DEFAULT_QUEUE = MEMORY_QUEUE_DB
# Which queue each task goes to: the model call and the embedding are stateless (any host);
# everything else reads or writes the database (docs/design.md §4).
CELERY_TASK_ROUTES = {
    "facts.call_extractor": {"queue": MEMORY_QUEUE_LLM},
    "recall.embed_facts": {"queue": MEMORY_QUEUE_EMBED},
    "*": {"queue": MEMORY_QUEUE_DB},
}

# Embedded broker: a SQLite file of its own under var/ (memory_service/broker.py).
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=f"sqlite:///{VAR_DIR / 'broker.sqlite3'}")
_visibility_timeout = env.int("CELERY_VISIBILITY_TIMEOUT", default=900)
if CELERY_BROKER_URL.startswith("sqlite:"):
    CELERY_BROKER_TRANSPORT = "memory_service.broker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # An idle worker reads the file this often; a poll is one indexed read.
        "polling_interval": env.float("MEMORY_BROKER_POLL_SECONDS", default=0.05),
        # A worker whose prefetch is taken looks again this soon (no database read): after
        # each task its pool process idles up to this long. With a turn's work in three
        # write transactions, 5 ms sustains 20 turns/s where 50 ms (kombu's interval) fell
        # behind at 16 (docs/measurements.md §12).
        "prefetch_wait": env.float("MEMORY_BROKER_PREFETCH_WAIT_SECONDS", default=0.005),
        "visibility_timeout": _visibility_timeout,
        "busy_timeout": env.float("SQLITE_BUSY_TIMEOUT_SECONDS", default=30),
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": _visibility_timeout}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# How much lower than the web server a Celery worker runs (os.nice): on a shared machine the
# API answers first and the worker takes what is left; 0 keeps the worker's own priority.
MEMORY_WORKER_NICE = env.int("MEMORY_WORKER_NICE", default=10)
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=120)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=180)
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]

# --- Memory: write path (docs/design.md §3) ------------------------------------------------
MEMORY_HIGH_RISK_CATEGORIES = env.list("MEMORY_HIGH_RISK_CATEGORIES", default=["identity", "health", "finance"])
MEMORY_FIRST_MENTION_CONFIDENCE = env.float("MEMORY_FIRST_MENTION_CONFIDENCE", default=0.40)
MEMORY_CONFIDENCE_STEP = env.float("MEMORY_CONFIDENCE_STEP", default=0.30)
MEMORY_CONFIRMED_CONFIDENCE = env.float("MEMORY_CONFIRMED_CONFIDENCE", default=0.90)
MEMORY_MAX_FACT_CHARS = env.int("MEMORY_MAX_FACT_CHARS", default=500)
MEMORY_PROFILE_BUDGET_CHARS = env.int("MEMORY_PROFILE_BUDGET_CHARS", default=8_000)
MEMORY_OTHER_BUDGET_CHARS = env.int("MEMORY_OTHER_BUDGET_CHARS", default=60_000)
MEMORY_MAX_TURN_CHARS = env.int("MEMORY_MAX_TURN_CHARS", default=20_000)

# --- Memory: extraction (docs/design.md §4) ------------------------------------------------
OPENAI_API_KEY = env.str("OPENAI_API_KEY", default="")
OPENAI_BASE_URL = env.str("OPENAI_BASE_URL", default="")
MEMORY_LLM_MODEL = env.str("MEMORY_LLM_MODEL", default="gpt-4.1-mini")
MEMORY_LLM_TIMEOUT_SECONDS = env.float("MEMORY_LLM_TIMEOUT_SECONDS", default=30.0)
MEMORY_LLM_MAX_TRIES = env.int("MEMORY_LLM_MAX_TRIES", default=3)
MEMORY_EXTRACTION_FACTS_CHARS = env.int("MEMORY_EXTRACTION_FACTS_CHARS", default=6_000)
MEMORY_LLM_BACKOFF_SECONDS = env.float("MEMORY_LLM_BACKOFF_SECONDS", default=2.0)
MEMORY_LLM_JSON_MODE = env.bool("MEMORY_LLM_JSON_MODE", default=True)
# Off: every turn goes to the extractor (facts/extraction/salience.py says what the gate skips).
MEMORY_SALIENCE_GATE = env.bool("MEMORY_SALIENCE_GATE", default=True)
# The longest one extraction call may take: two completions (the re-ask), each up to
# MAX_TRIES timeouts with the backoffs between them (facts/extraction/llm.py). The
# call_extractor task's time limits are derived from it, so a slow endpoint fails a
# turn with the endpoint's reason, never with Celery's soft time limit.
MEMORY_LLM_WORST_CASE_SECONDS = 2 * (
    max(1, MEMORY_LLM_MAX_TRIES) * MEMORY_LLM_TIMEOUT_SECONDS
    + sum(MEMORY_LLM_BACKOFF_SECONDS * 2**i for i in range(max(1, MEMORY_LLM_MAX_TRIES) - 1))
)
# The periodic sweep of turns nobody will finish (facts.tasks.sweep_turns, run by
# Celery beat; `make run` embeds beat in its worker with -B).
MEMORY_TURN_SWEEP_SECONDS = env.int("MEMORY_TURN_SWEEP_SECONDS", default=300)
MEMORY_TURN_STUCK_SECONDS = env.int(
    "MEMORY_TURN_STUCK_SECONDS", default=max(900, int(MEMORY_LLM_WORST_CASE_SECONDS) + 2 * CELERY_TASK_TIME_LIMIT)
)
MEMORY_TURN_MAX_ATTEMPTS = env.int("MEMORY_TURN_MAX_ATTEMPTS", default=5)
CELERY_BEAT_SCHEDULE = {
    "sweep-turns": {"task": "facts.sweep_turns", "schedule": float(MEMORY_TURN_SWEEP_SECONDS)},
    # Episode retention (off unless MEMORY_EPISODE_RETENTION_DAYS is set), once an hour.
    "expire-episodes": {"task": "facts.expire_episodes", "schedule": 3600.0},
    # The index's safety net: what a lost message or a crash left in its outbox (recall/indexer.py).
    "drain-index": {"task": "recall.drain_index", "schedule": float(env.int("MEMORY_INDEX_DRAIN_SECONDS", default=30))},
}

# --- Memory: embeddings and recall (docs/design.md §5) -------------------------------------
MEMORY_EMBEDDER = env.str("MEMORY_EMBEDDER", default="local")
if MEMORY_EMBEDDER not in {"local", "openai"}:
    raise ImproperlyConfigured("MEMORY_EMBEDDER must be 'local' or 'openai'.")
MEMORY_EMBEDDING_MODEL = env.str("MEMORY_EMBEDDING_MODEL", default="")
MEMORY_EMBEDDING_BASE_URL = env.str("MEMORY_EMBEDDING_BASE_URL", default="")
# One intra-op thread per process by default: web workers and pool processes already
# fill the cores, and torch's threads spin-wait for each other when a core is taken,
# so a query that takes 18 ms on one thread took up to 1 s on two under load
# (docs/measurements.md, "Torch threads under load").
# (MEMORY_TORCH_THREADS is this setting's older name and is still read.)
MEMORY_EMBEDDING_THREADS = env.int("MEMORY_EMBEDDING_THREADS", default=env.int("MEMORY_TORCH_THREADS", default=1))
# The local model runs on ONNX Runtime (a query in 4.7 ms instead of 11.4 ms on torch,
# the same vectors; docs/measurements.md) or on torch, as before.
MEMORY_EMBEDDING_RUNTIME = env.str("MEMORY_EMBEDDING_RUNTIME", default="onnx")
if MEMORY_EMBEDDING_RUNTIME not in {"onnx", "torch"}:
    raise ImproperlyConfigured("MEMORY_EMBEDDING_RUNTIME must be 'onnx' or 'torch'.")
# The ONNX export of the packaged model is made from the installed package, so by
# default it lives with the installation (the venv), shared by every var dir.
MEMORY_MODEL_DIR = Path(env.str("MEMORY_MODEL_DIR", default=str(Path(sys.prefix) / "share" / "memory-service")))
MEMORY_RECALL_DEFAULT_K = env.int("MEMORY_RECALL_DEFAULT_K", default=20)
MEMORY_EMBEDDING_TIMEOUT_SECONDS = env.float("MEMORY_EMBEDDING_TIMEOUT_SECONDS", default=10.0)
MEMORY_EMBED_BATCH_SIZE = env.int("MEMORY_EMBED_BATCH_SIZE", default=64)
# Items of the index outbox written per transaction when a backlog is drained.
MEMORY_INDEX_BATCH = env.int("MEMORY_INDEX_BATCH", default=256)
# Recall tuning (the README's Recall section has the ablation behind each default).
MEMORY_RECALL_FUSION = env.str("MEMORY_RECALL_FUSION", default="rrf")
if MEMORY_RECALL_FUSION not in {"rrf", "linear"}:
    raise ImproperlyConfigured("MEMORY_RECALL_FUSION must be 'rrf' or 'linear'.")
MEMORY_RECALL_LEXICAL_WEIGHT = env.float("MEMORY_RECALL_LEXICAL_WEIGHT", default=3.0)
MEMORY_RECALL_VECTOR_WEIGHT = env.float("MEMORY_RECALL_VECTOR_WEIGHT", default=3.0)
MEMORY_RECALL_CANDIDATES = env.int("MEMORY_RECALL_CANDIDATES", default=50)
MEMORY_RECALL_MIN_SIMILARITY = env.float("MEMORY_RECALL_MIN_SIMILARITY", default=0.0)
MEMORY_RECALL_LEXICAL_FLOOR = env.float("MEMORY_RECALL_LEXICAL_FLOOR", default=0.0)
MEMORY_RECALL_SCORE_DAMPING = env.bool("MEMORY_RECALL_SCORE_DAMPING", default=True)
MEMORY_RECALL_FULL_FUSION = env.bool("MEMORY_RECALL_FULL_FUSION", default=True)
MEMORY_RECALL_RESCORE_DEPTH = env.int("MEMORY_RECALL_RESCORE_DEPTH", default=500)
MEMORY_RECALL_UNIVERSAL_SHARE = env.float("MEMORY_RECALL_UNIVERSAL_SHARE", default=0.3)
MEMORY_RECALL_UNIVERSAL_MIN_FACTS = env.int("MEMORY_RECALL_UNIVERSAL_MIN_FACTS", default=20)
MEMORY_RECALL_EMBED_CONTEXT = env.bool("MEMORY_RECALL_EMBED_CONTEXT", default=True)
MEMORY_RECALL_EXCHANGE_CHARS = env.int("MEMORY_RECALL_EXCHANGE_CHARS", default=300)
MEMORY_RECALL_HALF_LIFE_DAYS = env.float("MEMORY_RECALL_HALF_LIFE_DAYS", default=7.0)
MEMORY_RECALL_TIME_WEIGHT = env.float("MEMORY_RECALL_TIME_WEIGHT", default=3.0)
MEMORY_RECALL_EPISODE_MERGE = env.bool("MEMORY_RECALL_EPISODE_MERGE", default=True)
# Episodes (processed turns) older than this many days are deleted by a periodic task; unset keeps them.
MEMORY_EPISODE_RETENTION_DAYS = env.int("MEMORY_EPISODE_RETENTION_DAYS", default=None)

# --- Memory: profiles and context (docs/design.md §6) --------------------------------------
MEMORY_PROFILE_EVERY_TURNS = env.int("MEMORY_PROFILE_EVERY_TURNS", default=5)
MEMORY_PROFILE_RECENT_DAYS = env.int("MEMORY_PROFILE_RECENT_DAYS", default=7)
MEMORY_PROFILE_KEEP_VERSIONS = env.int("MEMORY_PROFILE_KEEP_VERSIONS", default=20)
MEMORY_CONTEXT_MAX_TOKENS = env.int("MEMORY_CONTEXT_MAX_TOKENS", default=32_000)
MEMORY_CONTEXT_MIN_CONFIDENCE = env.float("MEMORY_CONTEXT_MIN_CONFIDENCE", default=0.5)
MEMORY_CONTEXT_STALE_DAYS = env.int("MEMORY_CONTEXT_STALE_DAYS", default=90)
MEMORY_CONTEXT_TASK_STALE_DAYS = env.int("MEMORY_CONTEXT_TASK_STALE_DAYS", default=14)
# Bearer token for the Prometheus endpoint /metrics. Without one, /metrics is refused
# unless METRICS_ALLOW_LOOPBACK is true (then loopback clients may scrape: only safe
# with no reverse proxy on this host, since a proxy's requests come from loopback).
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
METRICS_ALLOW_LOOPBACK = env.bool("METRICS_ALLOW_LOOPBACK", default=False)

# --- API: rate limits per key and route class (docs/api.md) ---------------------------
# "N/sec", "N/min", "N/hour" or "N/day"; "off" (or empty) turns a class off.
MEMORY_RATE_LIMIT_READ = env.str("MEMORY_RATE_LIMIT_READ", default="1200/min")
MEMORY_RATE_LIMIT_WRITE = env.str("MEMORY_RATE_LIMIT_WRITE", default="1200/min")
MEMORY_RATE_LIMIT_RECALL = env.str("MEMORY_RATE_LIMIT_RECALL", default="1200/min")
# Counters are shared by all server processes: in Redis when one is configured, else
# in a file under var/ that every process on this host maps (memory_service/counters.py,
# MEMORY_RATE_LIMIT_SLOTS windows at once). Neither takes the database's write lock.
_redis_url = env.str("REDIS_URL", default="") or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else ""
)
MEMORY_RATE_LIMIT_SLOTS = env.int("MEMORY_RATE_LIMIT_SLOTS", default=16_384)
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
if _redis_url:
    CACHES["ratelimit"] = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _redis_url}

# --- Dashboard sign-in: failed passwords per window (docs/deployment.md) ---------------
# Counted in the same counters as the API limits. Once an account, or a client address,
# has this many failures in the window, even the right password is refused (429) until
# the window ends. Same format as the API limits; "off" turns one off.
MEMORY_LOGIN_FAILURES_PER_ACCOUNT = env.str("MEMORY_LOGIN_FAILURES_PER_ACCOUNT", default="10/hour")
MEMORY_LOGIN_FAILURES_PER_ADDRESS = env.str("MEMORY_LOGIN_FAILURES_PER_ADDRESS", default="50/hour")
# Peers whose X-Forwarded-For names the client (the proxy; gunicorn trusts the same list).
# Addresses or networks; "*" trusts any peer.
MEMORY_TRUSTED_PROXIES = env.list("WEB_FORWARDED_ALLOW_IPS", default=["127.0.0.1", "::1"])

# --- Request path: buffered log rows and the API-key cache (docs/measurements.md) ---
MEMORY_LOG_BUFFER_ROWS = env.int("MEMORY_LOG_BUFFER_ROWS", default=200)
MEMORY_LOG_BUFFER_SECONDS = env.float("MEMORY_LOG_BUFFER_SECONDS", default=2.0)
MEMORY_API_KEY_CACHE_SECONDS = env.float("MEMORY_API_KEY_CACHE_SECONDS", default=30.0)
