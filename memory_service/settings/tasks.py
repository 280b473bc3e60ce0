"""Settings: Celery's queues, routes, broker and task limits."""

from __future__ import annotations

import ssl

from kombu import Exchange, Queue
from kombu.transport import TRANSPORT_ALIASES

from memory_service.settings.base import VAR_DIR, env
from memory_service.settings.database import _busy_timeout

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
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # kombu's, but a Redis restart cannot end a worker (core/redis_broker.py).
    CELERY_BROKER_TRANSPORT = "core.redis_broker:Transport"
if CELERY_BROKER_URL.startswith("rediss://"):
    # Named by its class, the transport no longer learns TLS from the URL's scheme; with it
    # said here the server's certificate is also checked (the system's CAs), where kombu's
    # own default for rediss:// checks nothing.
    CELERY_BROKER_USE_SSL = {"ssl_cert_reqs": ssl.CERT_REQUIRED}
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
