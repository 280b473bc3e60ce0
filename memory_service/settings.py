"""One settings file, configured from the environment (see .env.example).

Defaults give the embedded mode: SQLite under var/, a Celery broker on its own SQLite file,
the local embedding model and the offline rule-based extractor.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import sys
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue
from kombu.transport import TRANSPORT_ALIASES

from core.db.postgresql_urls import with_socket_host
from core.private_files import private_folder, private_text_once
from core.ratelimit import RATE_FORMS, parse_rate
from memory_service.environment import NOT_A_RATE, NOT_AN_ADDRESS, Env
from memory_service.web_server import web_server_settings

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("MEMORY_VAR_DIR", BASE_DIR / "var"))
# Databases, broker, secret key: readable by this user only (core/private_files.py).
private_folder(VAR_DIR)

# A malformed value is noted and its default taken; the system checks report every note
# (memory_service/environment.py, memory_service/settings_checks.py).
env = Env()
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
    return private_text_once(VAR_DIR / "secret_key", secrets.token_urlsafe(50))


SECRET_KEY = _secret_key()
# Off unless asked for: DEBUG pages show settings and code to whoever gets an error.
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# Django's own: check ids not to report, such as memory_service.W001 on a single host.
SILENCED_SYSTEM_CHECKS = env.list("SILENCED_SYSTEM_CHECKS", default=[])

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
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000 if PRODUCTION else 0, minimum=0)
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
    # django-ninja serves Swagger UI from its own static files when installed as an app,
    # instead of from a CDN (nothing may be fetched at run time).
    "ninja",
    "memory_service",
    "facts",
    "recall",
    "profiles",
    "mcp_server",
    "mem0_api",
    "importer",
    "webhooks",
    "dashboard",
]
# The benchmark and evaluation commands (bench/): on by default except in production, where
# an operator turns them on for a release check (`eval_recall`) or a drill.
if env.bool("MEMORY_BENCH_COMMANDS", default=not PRODUCTION):
    INSTALLED_APPS.append("bench")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files without DEBUG and without a separate web server (compressed, cached).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # The API's 405s as JSON, like its 404s (memory_service/not_found.py).
    "memory_service.not_found.JsonMethodNotAllowed",
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
# An unreadable URL gives no ENGINE at all. Refused here, not by a check: no default
# database is a safe stand-in for the one the operator meant.
DATABASE_ENGINE = _ENGINES.get(DATABASES["default"].get("ENGINE", ""), "")
if not DATABASE_ENGINE:
    raise ImproperlyConfigured(
        "DATABASE_URL must be sqlite:///path/to/file.sqlite3 or postgresql://user:password@host:port/name."
    )
# Keep each server thread's connection open across requests: opening and
# closing a WAL connection per request costs a file open, the sqlite-vec load
# and the PRAGMAs every time, and is the pattern that deadlocked SQLite
# 3.51.0-3.51.1 (core/sqlite_driver.py); a PostgreSQL connection costs
# a login. 0 closes after every request.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=600, minimum=0)
# A PostgreSQL server can restart or drop an idle connection; SQLite's check costs nothing.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
_busy_timeout = env.float("SQLITE_BUSY_TIMEOUT_SECONDS", default=30.0, minimum=0)
if DATABASE_ENGINE == "sqlite":
    DATABASES["default"]["ENGINE"] = "core.db"
    DATABASES["default"]["OPTIONS"] = {
        "timeout": _busy_timeout,
        # BEGIN IMMEDIATE takes the write lock up front, so concurrent writers wait
        # on busy_timeout instead of failing with "database is locked" on upgrade.
        "transaction_mode": "IMMEDIATE",
    }
else:
    # postgresql://user@/name?host=/run/socket-folder: the socket folder is the host.
    with_socket_host(DATABASES["default"])
# After erases and forgets on PostgreSQL (facts/compactor.py): full rewrites the
# user-data tables so deleted rows leave the data files; plain marks their space reusable;
# off leaves it to autovacuum.
MEMORY_POSTGRES_ERASE_VACUUM = env.choice("MEMORY_POSTGRES_ERASE_VACUUM", "full", ("full", "plain", "off"))
# The request rewrites nothing: a background pass (facts/compactor.py, Celery beat
# `compact-erasures`) runs this often, and waits at most this long for each table's lock.
MEMORY_POSTGRES_COMPACT_SECONDS = env.int("MEMORY_POSTGRES_COMPACT_SECONDS", default=300, minimum=1)
MEMORY_POSTGRES_COMPACT_LOCK_WAIT_MS = env.int("MEMORY_POSTGRES_COMPACT_LOCK_WAIT_MS", default=100, minimum=1)
# The user-data tables (recall index, turns, facts, ...) are hash-partitioned by user into this
# many slices, so a pass rewrites (and locks) only an erased user's slice: a hold is about table
# size / partitions (docs/deployment.md). Read when the migrations (recall 0009, facts 0010,
# profiles 0002) make the tables; `manage.py repartition` changes a live store's count.
MEMORY_POSTGRES_PARTITIONS = env.int("MEMORY_POSTGRES_PARTITIONS", default=64, minimum=1, maximum=1024)
# `manage.py check` warns when a user-data table's largest partition is above this many MB: the
# size a compaction rewrite passes in about 100 ms at 50-70 MB/s (docs/measurements.md §17);
# `manage.py repartition` gives the store more partitions (docs/deployment.md).
MEMORY_POSTGRES_PARTITION_WARN_MB = env.float("MEMORY_POSTGRES_PARTITION_WARN_MB", default=5.0, minimum=0.01)
# Read by `manage.py move_store`: the empty PostgreSQL database it moves the SQLite store
# into. From here rather than its command line, which `ps` shows to every user of the host.
MEMORY_MOVE_TO_URL = env.url(
    "MEMORY_MOVE_TO_URL", "", {"postgresql", "postgres"}, "postgresql://memory:secret@db.internal:5432/memory"
)
# Backups (docs/deployment.md, "Backups and restore"): where `manage.py backup` writes when not
# given a folder, how many it keeps there, and every how many hours beat takes one (0: never).
MEMORY_BACKUP_DIR = Path(env.str("MEMORY_BACKUP_DIR", default=str(VAR_DIR / "backups")))
MEMORY_BACKUP_KEEP = env.int("MEMORY_BACKUP_KEEP", default=7, minimum=1)
MEMORY_BACKUP_EVERY_HOURS = env.float("MEMORY_BACKUP_EVERY_HOURS", default=0.0, minimum=0)
# PostgreSQL backups run these programs (the server's major version or newer).
MEMORY_PG_DUMP = env.str("MEMORY_PG_DUMP", default="pg_dump")
MEMORY_PG_RESTORE = env.str("MEMORY_PG_RESTORE", default="pg_restore")
# Erasures a restore must re-apply (core/db/journal.py): a SQLite file no backup
# copies, or a postgresql:// URL of a database of its own that every host reaches.
MEMORY_ERASURE_JOURNAL = env.str("MEMORY_ERASURE_JOURNAL", default=str(VAR_DIR / "erasure-journal.sqlite3"))
# Per connection: SQLite's own page cache, and how much of the file it may map. Mapped
# pages are read in place from the OS cache (shared by every connection and process)
# instead of copied by a read() each: a recall over 1,000 episodes reads about 1,000
# scattered rows (docs/measurements.md §3, "Page cache and mmap"). Address space only.
SQLITE_CACHE_MB = env.int("SQLITE_CACHE_MB", default=2, minimum=0)
SQLITE_MMAP_MB = env.int("SQLITE_MMAP_MB", default=4096, minimum=0)
# A real file for tests too (Django would pick :memory:); the pid keeps
# parallel test runs on one machine apart (on PostgreSQL, a database of their own).
_test_name = (
    str(VAR_DIR / f"test-{os.getpid()}.sqlite3") if DATABASE_ENGINE == "sqlite" else f"test_memory_{os.getpid()}"
)
DATABASES["default"]["TEST"] = {"NAME": env.str("DATABASE_TEST_NAME", default=_test_name)}
# Streaming replicas that recall, the context block and the fact list and get routes read from,
# each user's only once it has replayed that user's last write (facts/replicas.py).
# Writes stay on the primary. Empty: every read on the primary.
DATABASE_REPLICA_URLS = env.list("DATABASE_REPLICA_URLS", default=[])
MEMORY_DATABASE_REPLICAS: list[str] = []
for _number, _url in enumerate(u.strip() for u in DATABASE_REPLICA_URLS if u.strip()):
    _replica = env.db_url_config(_url)
    if DATABASE_ENGINE != "postgresql" or _replica.get("ENGINE") != "django.db.backends.postgresql":
        raise ImproperlyConfigured(
            "DATABASE_REPLICA_URLS must be postgresql:// URLs, with DATABASE_URL on PostgreSQL too."
        )
    _replica.update(CONN_MAX_AGE=DATABASES["default"]["CONN_MAX_AGE"], CONN_HEALTH_CHECKS=True)
    # Tests run against the primary's test database: a replica alias mirrors it.
    _replica["TEST"] = {"MIRROR": "default"}
    DATABASES[f"replica{_number}"] = with_socket_host(_replica)
    MEMORY_DATABASE_REPLICAS.append(f"replica{_number}")
DATABASE_ROUTERS = ["facts.replicas.ReplicaRouter"]
# For the connection check (memory_service.W003): how many web hosts run with this configuration,
# how many connections the Celery workers that use the database hold in all, and "pgbouncer" when
# DATABASE_URL is PgBouncer in transaction mode (its pool then bounds the server's connections).
DATABASE_WEB_HOSTS = env.int("DATABASE_WEB_HOSTS", default=1, minimum=1)
DATABASE_WORKER_CONNECTIONS = env.int("DATABASE_WORKER_CONNECTIONS", default=4, minimum=0)
DATABASE_POOLER = env.choice("DATABASE_POOLER", "none", ("none", "pgbouncer"))
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

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # User ids in request paths leave the log as keyed hashes (core/logredact.py).
    "filters": {"redact_user_ids": {"()": "core.logredact.RedactUserIds"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["redact_user_ids"]}},
    "root": {"handlers": ["console"], "level": env.choice("LOG_LEVEL", "INFO", LOG_LEVELS)},
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

# Embedded broker: a SQLite file of its own under var/ (core/broker.py).
CELERY_BROKER_URL = env.url(
    "CELERY_BROKER_URL",
    f"sqlite:///{VAR_DIR / 'broker.sqlite3'}",
    {"sqlite", *TRANSPORT_ALIASES},  # the embedded broker, or any transport kombu has
    "redis://:password@10.0.0.1:6379/0 or sqlite:////srv/memory/var/broker.sqlite3",
)
_visibility_timeout = env.int("CELERY_VISIBILITY_TIMEOUT", default=900, minimum=1)
if CELERY_BROKER_URL.startswith("sqlite:"):
    CELERY_BROKER_TRANSPORT = "core.broker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # An idle worker reads the file this often; a poll is one indexed read.
        "polling_interval": env.float("MEMORY_BROKER_POLL_SECONDS", default=0.05, minimum=0.001),
        # A worker whose prefetch is taken looks again this soon (no database read): after
        # each task its pool process idles up to this long. With a turn's work in three
        # write transactions, 5 ms sustains 20 turns/s where 50 ms (kombu's interval) fell
        # behind at 16 (docs/measurements.md §12).
        "prefetch_wait": env.float("MEMORY_BROKER_PREFETCH_WAIT_SECONDS", default=0.005, minimum=0),
        "visibility_timeout": _visibility_timeout,
        "busy_timeout": _busy_timeout,
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
# (os.nice: 19 is the lowest priority there is.)
MEMORY_WORKER_NICE = env.int("MEMORY_WORKER_NICE", default=10, minimum=0, maximum=19)
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=120, minimum=1)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=180, minimum=1)
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]

# --- Memory: write path (docs/design.md §3) ------------------------------------------------
MEMORY_HIGH_RISK_CATEGORIES = env.list("MEMORY_HIGH_RISK_CATEGORIES", default=["identity", "health", "finance"])
MEMORY_FIRST_MENTION_CONFIDENCE = env.float("MEMORY_FIRST_MENTION_CONFIDENCE", default=0.40, minimum=0, maximum=1)
MEMORY_CONFIDENCE_STEP = env.float("MEMORY_CONFIDENCE_STEP", default=0.30, minimum=0, maximum=1)
MEMORY_CONFIRMED_CONFIDENCE = env.float("MEMORY_CONFIRMED_CONFIDENCE", default=0.90, minimum=0, maximum=1)
MEMORY_MAX_FACT_CHARS = env.int("MEMORY_MAX_FACT_CHARS", default=500, minimum=1)
MEMORY_PROFILE_BUDGET_CHARS = env.int("MEMORY_PROFILE_BUDGET_CHARS", default=8_000, minimum=1)
MEMORY_OTHER_BUDGET_CHARS = env.int("MEMORY_OTHER_BUDGET_CHARS", default=60_000, minimum=1)
# A fact's value_json as JSON text (non-ASCII escaped); it counts against the budgets above too.
MEMORY_VALUE_JSON_MAX_BYTES = env.int("MEMORY_VALUE_JSON_MAX_BYTES", default=16_384, minimum=0)
# The most a list of facts answers in one page (GET /users/{id}/facts); the rest on next_cursor.
MEMORY_LIST_MAX_BYTES = env.int("MEMORY_LIST_MAX_BYTES", default=1_048_576, minimum=65_536)
MEMORY_MAX_TURN_CHARS = env.int("MEMORY_MAX_TURN_CHARS", default=20_000, minimum=1)
# "Don't remember this": the rules, OR a classifier on the local MiniLM model that reads the
# phrasings they miss (facts/consent_model.py; docs/design.md §13; ~10 ms more per turn POST).
MEMORY_CONSENT_CLASSIFIER = env.bool("MEMORY_CONSENT_CLASSIFIER", default=True)
# Imports of a person's history (importer/): the pace, a pause while the tenant's extraction
# queue is longer than this, and the largest export the API takes (the command takes any).
MEMORY_IMPORT_TURNS_PER_SECOND = env.int("MEMORY_IMPORT_TURNS_PER_SECOND", default=5, minimum=1)
MEMORY_IMPORT_MAX_WAITING = env.int("MEMORY_IMPORT_MAX_WAITING", default=20, minimum=1)
MEMORY_IMPORT_MAX_BYTES = env.int("MEMORY_IMPORT_MAX_BYTES", default=20_971_520, minimum=1024)

# --- Memory: extraction (docs/design.md §4) ------------------------------------------------
OPENAI_API_KEY = env.str("OPENAI_API_KEY", default="")
OPENAI_BASE_URL = env.url("OPENAI_BASE_URL", "", {"http", "https"}, "https://api.example.org/v1")
MEMORY_LLM_MODEL = env.str("MEMORY_LLM_MODEL", default="gpt-4.1-mini")
MEMORY_LLM_TIMEOUT_SECONDS = env.float("MEMORY_LLM_TIMEOUT_SECONDS", default=30.0, minimum=0.001)
MEMORY_LLM_MAX_TRIES = env.int("MEMORY_LLM_MAX_TRIES", default=3, minimum=1)
MEMORY_EXTRACTION_FACTS_CHARS = env.int("MEMORY_EXTRACTION_FACTS_CHARS", default=6_000, minimum=0)
MEMORY_LLM_BACKOFF_SECONDS = env.float("MEMORY_LLM_BACKOFF_SECONDS", default=2.0, minimum=0)
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
MEMORY_TURN_SWEEP_SECONDS = env.int("MEMORY_TURN_SWEEP_SECONDS", default=300, minimum=1)
MEMORY_TURN_STUCK_SECONDS = env.int(
    "MEMORY_TURN_STUCK_SECONDS",
    default=max(900, int(MEMORY_LLM_WORST_CASE_SECONDS) + 2 * CELERY_TASK_TIME_LIMIT),
    minimum=1,
)
MEMORY_TURN_MAX_ATTEMPTS = env.int("MEMORY_TURN_MAX_ATTEMPTS", default=5, minimum=1)
CELERY_BEAT_SCHEDULE = {
    "sweep-turns": {"task": "facts.sweep_turns", "schedule": float(MEMORY_TURN_SWEEP_SECONDS)},
    # Episode retention (off unless MEMORY_EPISODE_RETENTION_DAYS is set), once an hour.
    "expire-episodes": {"task": "facts.expire_episodes", "schedule": 3600.0},
    # The index's safety net: what a lost message or a crash left in its outbox (recall/indexer.py).
    "drain-index": {
        "task": "recall.drain_index",
        "schedule": float(env.int("MEMORY_INDEX_DRAIN_SECONDS", default=30, minimum=1)),
    },
}
if DATABASE_ENGINE == "postgresql" and MEMORY_POSTGRES_ERASE_VACUUM != "off":
    CELERY_BEAT_SCHEDULE["compact-erasures"] = {
        "task": "memory_service.compact_erasures",
        "schedule": float(MEMORY_POSTGRES_COMPACT_SECONDS),
    }
if MEMORY_BACKUP_EVERY_HOURS > 0:
    CELERY_BEAT_SCHEDULE["backup"] = {"task": "memory_service.backup", "schedule": MEMORY_BACKUP_EVERY_HOURS * 3600}
# Webhooks (webhooks/, docs/api.md "Webhooks"): the outbox's sweep, the request timeout, and the
# retries: a failed delivery waits BACKOFF x 2^(attempt-1) seconds (at most BACKOFF_MAX) and is
# given up after MAX_ATTEMPTS (the defaults retry for about 6 hours).
MEMORY_WEBHOOK_SWEEP_SECONDS = env.float("MEMORY_WEBHOOK_SWEEP_SECONDS", default=5.0, minimum=0.1)
MEMORY_WEBHOOK_TIMEOUT_SECONDS = env.float("MEMORY_WEBHOOK_TIMEOUT_SECONDS", default=5.0, minimum=0.1, maximum=60)
MEMORY_WEBHOOK_BACKOFF_SECONDS = env.float("MEMORY_WEBHOOK_BACKOFF_SECONDS", default=10.0, minimum=0.01)
MEMORY_WEBHOOK_BACKOFF_MAX_SECONDS = env.float("MEMORY_WEBHOOK_BACKOFF_MAX_SECONDS", default=3600.0, minimum=0.01)
MEMORY_WEBHOOK_MAX_ATTEMPTS = env.int("MEMORY_WEBHOOK_MAX_ATTEMPTS", default=15, minimum=1)
# The delivery log (delivered and given-up rows) is kept this many days, then pruned hourly.
MEMORY_WEBHOOK_LOG_DAYS = env.int("MEMORY_WEBHOOK_LOG_DAYS", default=30, minimum=1)
CELERY_BEAT_SCHEDULE["prune-webhook-log"] = {"task": "webhooks.prune_log", "schedule": 3600.0}


def _networks(raw: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(part.strip(), strict=False) for part in raw.split(",") if part.strip()]


# Where webhooks may go (webhooks/addresses.py): public addresses only, unless the operator
# allows networks of their own (CIDRs), or every address (a single host, the tests).
MEMORY_WEBHOOK_ALLOW_PRIVATE_NETWORKS = env.bool("MEMORY_WEBHOOK_ALLOW_PRIVATE_NETWORKS", default=False)
MEMORY_WEBHOOK_ALLOWED_NETWORKS = [
    str(network)
    for network in _networks(
        env.checked(
            "MEMORY_WEBHOOK_ALLOWED_NETWORKS", "", "networks like 10.0.0.0/8,fd00::/8", _networks, NOT_AN_ADDRESS
        )
    )
]
CELERY_BEAT_SCHEDULE["deliver-webhooks"] = {"task": "webhooks.deliver_due", "schedule": MEMORY_WEBHOOK_SWEEP_SECONDS}

# --- Memory: embeddings and recall (docs/design.md §5) -------------------------------------
MEMORY_EMBEDDER = env.choice("MEMORY_EMBEDDER", "local", ("local", "openai"))
MEMORY_EMBEDDING_MODEL = env.str("MEMORY_EMBEDDING_MODEL", default="")
# MEMORY_EMBEDDER=local: which packaged model (recall/embeddings.py; docs/measurements.md §18).
# A store that has switched models with `manage.py embedder_switch` serves the one it records.
MEMORY_EMBEDDING_LOCAL_MODEL = env.choice(
    "MEMORY_EMBEDDING_LOCAL_MODEL", "all-MiniLM-L6-v2", ("all-MiniLM-L6-v2", "multilingual-e5-small-q4")
)
MEMORY_EMBEDDING_BASE_URL = env.url("MEMORY_EMBEDDING_BASE_URL", "", {"http", "https"}, "https://api.example.org/v1")
# One intra-op thread per process by default: web workers and pool processes already
# fill the cores, and torch's threads spin-wait for each other when a core is taken,
# so a query that takes 18 ms on one thread took up to 1 s on two under load
# (docs/measurements.md, "Torch threads under load").
# (MEMORY_TORCH_THREADS is this setting's older name and is still read.)
MEMORY_EMBEDDING_THREADS = env.int(
    "MEMORY_EMBEDDING_THREADS", default=env.int("MEMORY_TORCH_THREADS", default=1, minimum=1), minimum=1
)
# The local model runs on ONNX Runtime (a query in 4.7 ms instead of 11.4 ms on torch,
# the same vectors; docs/measurements.md) or on torch, as before.
MEMORY_EMBEDDING_RUNTIME = env.choice("MEMORY_EMBEDDING_RUNTIME", "onnx", ("onnx", "torch"))
# The ONNX export of the packaged model is made from the installed package, so by
# default it lives with the installation (the venv), shared by every var dir.
MEMORY_MODEL_DIR = Path(env.str("MEMORY_MODEL_DIR", default=str(Path(sys.prefix) / "share" / "memory-service")))
MEMORY_RECALL_DEFAULT_K = env.int("MEMORY_RECALL_DEFAULT_K", default=20, minimum=1)
MEMORY_EMBEDDING_TIMEOUT_SECONDS = env.float("MEMORY_EMBEDDING_TIMEOUT_SECONDS", default=10.0, minimum=0.001)
MEMORY_EMBED_BATCH_SIZE = env.int("MEMORY_EMBED_BATCH_SIZE", default=64, minimum=1)
# Items of the index outbox written per transaction when a backlog is drained.
MEMORY_INDEX_BATCH = env.int("MEMORY_INDEX_BATCH", default=256, minimum=1)
# Recall tuning (the README's Recall section has the ablation behind each default).
MEMORY_RECALL_FUSION = env.choice("MEMORY_RECALL_FUSION", "rrf", ("rrf", "linear"))
MEMORY_RECALL_LEXICAL_WEIGHT = env.float("MEMORY_RECALL_LEXICAL_WEIGHT", default=3.0, minimum=0)
MEMORY_RECALL_VECTOR_WEIGHT = env.float("MEMORY_RECALL_VECTOR_WEIGHT", default=3.0, minimum=0)
MEMORY_RECALL_CANDIDATES = env.int("MEMORY_RECALL_CANDIDATES", default=50, minimum=1)
MEMORY_RECALL_MIN_SIMILARITY = env.float("MEMORY_RECALL_MIN_SIMILARITY", default=0.0, minimum=-1, maximum=1)
MEMORY_RECALL_LEXICAL_FLOOR = env.float("MEMORY_RECALL_LEXICAL_FLOOR", default=0.0, minimum=0, maximum=1)
MEMORY_RECALL_SCORE_DAMPING = env.bool("MEMORY_RECALL_SCORE_DAMPING", default=True)
MEMORY_RECALL_FULL_FUSION = env.bool("MEMORY_RECALL_FULL_FUSION", default=True)
MEMORY_RECALL_RESCORE_DEPTH = env.int("MEMORY_RECALL_RESCORE_DEPTH", default=500, minimum=1)
MEMORY_RECALL_UNIVERSAL_SHARE = env.float("MEMORY_RECALL_UNIVERSAL_SHARE", default=0.3, minimum=0, maximum=1)
MEMORY_RECALL_UNIVERSAL_MIN_FACTS = env.int("MEMORY_RECALL_UNIVERSAL_MIN_FACTS", default=20, minimum=0)
MEMORY_RECALL_EMBED_CONTEXT = env.bool("MEMORY_RECALL_EMBED_CONTEXT", default=True)
MEMORY_RECALL_EXCHANGE_CHARS = env.int("MEMORY_RECALL_EXCHANGE_CHARS", default=300, minimum=0)
MEMORY_RECALL_HALF_LIFE_DAYS = env.float("MEMORY_RECALL_HALF_LIFE_DAYS", default=7.0, minimum=0.001)
MEMORY_RECALL_TIME_WEIGHT = env.float("MEMORY_RECALL_TIME_WEIGHT", default=3.0, minimum=0)
# Hybrid recall: a hit's score grows by up to this share the newer it is (docs/recall.md, "Newer first").
MEMORY_RECALL_RECENCY_WEIGHT = env.float("MEMORY_RECALL_RECENCY_WEIGHT", default=0.2, minimum=0, maximum=1)
# Hybrid recall: hits scoring at least the best's 1/ratio go newest first (docs/recall.md); 1 = off.
MEMORY_RECALL_LEADER_RATIO = env.float("MEMORY_RECALL_LEADER_RATIO", default=1.5, minimum=1)
MEMORY_RECALL_EPISODE_MERGE = env.bool("MEMORY_RECALL_EPISODE_MERGE", default=True)
# With episodes asked for, a fact hit whose source turn was not folded into it still returns that
# turn's words as its quote (recall.episodes.quote_sources; docs/measurements.md §23).
MEMORY_RECALL_QUOTE_SOURCES = env.bool("MEMORY_RECALL_QUOTE_SOURCES", default=True)
# What a turn's index entry holds: its words, or its words and the live facts extracted from it
# (docs/recall.md "Turn keys"; after a change run reindex_embeddings).
MEMORY_RECALL_TURN_KEYS = env.choice("MEMORY_RECALL_TURN_KEYS", "words+facts", ("words", "words+facts"))
# With words+facts keys and both sources asked for, a fact its turn's key holds is ranked through
# that turn and returned folded into it (recall.through_turns; docs/recall.md).
MEMORY_RECALL_FACTS_THROUGH_TURNS = env.bool("MEMORY_RECALL_FACTS_THROUGH_TURNS", default=True)
# Episodes (processed turns) older than this many days are deleted by a periodic task; unset keeps them.
MEMORY_EPISODE_RETENTION_DAYS = env.int("MEMORY_EPISODE_RETENTION_DAYS", default=None, minimum=1)

# --- Memory: profiles and context (docs/design.md §6) --------------------------------------
MEMORY_PROFILE_EVERY_TURNS = env.int("MEMORY_PROFILE_EVERY_TURNS", default=5, minimum=1)
MEMORY_PROFILE_RECENT_DAYS = env.int("MEMORY_PROFILE_RECENT_DAYS", default=7, minimum=0)
MEMORY_PROFILE_KEEP_VERSIONS = env.int("MEMORY_PROFILE_KEEP_VERSIONS", default=20, minimum=1)
MEMORY_CONTEXT_MAX_TOKENS = env.int("MEMORY_CONTEXT_MAX_TOKENS", default=32_000, minimum=1)
MEMORY_CONTEXT_MIN_CONFIDENCE = env.float("MEMORY_CONTEXT_MIN_CONFIDENCE", default=0.5, minimum=0, maximum=1)
MEMORY_CONTEXT_STALE_DAYS = env.int("MEMORY_CONTEXT_STALE_DAYS", default=90, minimum=1)
MEMORY_CONTEXT_TASK_STALE_DAYS = env.int("MEMORY_CONTEXT_TASK_STALE_DAYS", default=14, minimum=1)
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

# Every environment variable above that could not be read (memory_service/settings_checks.py).
MALFORMED_ENVIRONMENT = env.malformed
