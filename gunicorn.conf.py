"""gunicorn settings for `make run` and for deployments (docs/deployment.md).

Run from the repository root: `.venv/bin/gunicorn -c gunicorn.conf.py`.
Every value can be set from the environment (the WEB_* variables of .env.example).
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
from pathlib import Path

# gunicorn puts the checkout on sys.path only once it loads the application; the WEB_*
# variables are read, below, by the same code as the settings' (memory_service/web_server.py).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from memory_service.environment import Env  # noqa: E402
from memory_service.web_server import web_server_settings  # noqa: E402

# The tokenizer's own thread pool is not fork-safe either; one query needs no parallel tokenizing.
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

# A malformed WEB_* value gives its default here; the system checks, run in on_starting
# below, then name it and refuse to start.
_web = web_server_settings(Env())
wsgi_app = "memory_service.wsgi:application"
bind = [_web["bind"]]

# Processes for the CPU work (Python request handling holds the GIL), threads
# for the waits (SQLite busy timeout, network). Two processes suit two cores:
# each query embedding also runs MEMORY_EMBEDDING_THREADS intra-op threads.
workers = _web["workers"]
worker_class = "gthread"
threads = _web["threads"]
# A request that takes longer than this is stuck: its worker is restarted.
timeout = _web["timeout"]
graceful_timeout = 30
keepalive = 5
accesslog = _web["accesslog"]  # "-" for stdout; off by default
# Request paths name end users: the access log shows a keyed hash of each user id instead.
logger_class = "core.logredact.RedactingGunicornLogger"
# Behind a TLS-terminating proxy on another address, list it here so gunicorn
# trusts its X-Forwarded-* headers (Django's SECURE_PROXY_SSL_HEADER does the rest).
forwarded_allow_ips = _web["forwarded_allow_ips"]
# gunicorn 27's runtime control socket defaults to one path in the home folder,
# shared by every gunicorn of the user; nothing here uses it.
control_socket_disable = True

# Import Django and the whole application once in the master, so every worker
# starts as a copy of a warm process instead of importing it again (and shares
# the model's memory pages with the master until it writes to them).
preload_app = True


def on_starting(server) -> None:
    """gunicorn runs no system checks: refuse a broken install (an SQLite build that
    deadlocks, memory_service.E001) or a malformed setting (memory_service.E010-E016) before
    it listens or starts a worker, with the same report as `manage.py check`."""
    from django.db import connections

    from memory_service.settings_checks import startup_report

    report = startup_report()
    connections.close_all()
    if report is not None:
        server.log.error("%s\nRefusing to start.", report)
        sys.exit(1)


def when_ready(server) -> None:
    from django.db import connections
    from django.urls import get_resolver

    from core.checks import loaded_sqlite
    from memory_service import celery_app

    server.log.info("Running on %s", loaded_sqlite())
    # Django imports the URLconf (every API module and its schemas) on the first
    # request, seconds on a busy machine; do it here, once, for all workers.
    routes = get_resolver().url_patterns
    server.log.info("URLconf loaded: %d top-level routes", len(routes))
    # The ORM imports its SQL compiler on the first query a process compiles: ~150 ms
    # of the first request of every worker. Import it here, without touching the database.
    connections["default"].ops.compiler("SQLCompiler")
    # Celery builds its task registry on the first task sent (a quarter of a
    # second here). Only the registry: broker connections must not cross a fork.
    celery_app.finalize(auto=True)
    # The broker's transport (kombu, SQLAlchemy for the embedded broker) is imported on
    # the first task sent, which a request's API-key bookkeeping does: ~150 ms of imports
    # that the first request of every worker paid. Import it here; connect in post_fork.
    connection = celery_app.connection_for_write()  # not connected: only the transport class is built
    server.log.info("Broker transport %s imported", type(connection.transport).__name__)
    connection.release()
    _import_first_request_modules()
    _load_embedding_model(server)


def _import_first_request_modules() -> None:
    """What the first request of every worker imported or built (a profile of it, docs/
    measurements.md §9): the session engine and message storage of the middleware, the
    disabled event dispatcher that Celery's task sends use (celery.events), the URL
    patterns' regexes, compiled on first match, the MCP SDK, which the /mcp view imports
    on its first call (mcp_server/views.py), and the consent rules' needed words
    (facts/consent.py `warm`), read on first use otherwise."""
    from importlib import import_module

    from django.conf import settings
    from django.urls import get_resolver
    from django.utils.module_loading import import_string

    from memory_service import celery_app

    import_module(settings.SESSION_ENGINE)
    import_string(settings.MESSAGE_STORAGE)
    # A cached property of Celery's AMQP helper; getattr so that a Celery without it still starts.
    getattr(celery_app.amqp, "_event_dispatcher", None)
    _compile_patterns(get_resolver())
    import_module("mcp_server.server")
    import_module("facts.consent").warm()


def _compile_patterns(resolver) -> None:
    for entry in resolver.url_patterns:
        entry.pattern.regex  # noqa: B018 - compiled on first access, then kept
        if hasattr(entry, "url_patterns"):
            _compile_patterns(entry)


def _load_embedding_model(server) -> None:
    """Load the local models in the master, so no request pays for one (recall/embeddings.py
    `embedders_in_use`: recall's, and the consent classifier's when it reads with another)."""
    from django.conf import settings

    from recall.embeddings import embedders_in_use

    for embedder in embedders_in_use():
        if embedder.provider != "local":
            continue  # a remote endpoint: nothing to load, and no call to spend at start-up
        embedder.load_before_fork()
        server.log.info(
            "Embedding model %s loaded on %s; workers use %d threads",
            embedder.model_name,
            embedder.runtime,
            settings.MEMORY_EMBEDDING_THREADS,
        )


def pre_fork(server, worker) -> None:
    # A connection must never be shared by two processes: SQLite's locks are per process.
    from django.db import connections

    connections.close_all()
    # Everything the master loaded (Django, the URLconf, the embedding model) goes to the
    # collector's permanent generation: otherwise the first full collection in each worker
    # walks and writes every one of those objects, copying the pages it shares with the
    # master, which cost the worker's first request ~130 ms (docs/measurements.md §9).
    gc.collect()
    gc.freeze()


def post_fork(server, worker) -> None:
    """Connect to the broker, give the worker its embedding threads and run one embedding,
    before it accepts requests."""
    from memory_service import celery_app
    from recall.embeddings import embedders_in_use

    _connect_producer(server, celery_app)
    for embedder in embedders_in_use():
        if embedder.provider == "local":
            embedder.warm_after_fork()
            server.log.info("Worker %s: embedding model %s warm", worker.pid, embedder.model_name)


def _connect_producer(server, celery_app) -> None:
    """Open this worker's own broker connection (never the master's: none crosses a fork),
    and do now what the first task sent would otherwise do inside a request: declare the
    service's queues (for the embedded broker that builds the SQLAlchemy engine, about
    120 ms) and load the result backend's class (an entry-point scan)."""
    try:
        with celery_app.producer_or_acquire() as producer:
            producer.connection.ensure_connection(max_retries=1)
            for queue in celery_app.amqp.queues.values():
                producer.maybe_declare(queue)
        celery_app.backend  # noqa: B018 - the property loads the backend class
    except Exception as exc:  # a broker down at start-up: the first task send retries and reports
        server.log.warning("Broker not reachable at worker start (%s); tasks will retry", exc)


def post_worker_init(worker) -> None:
    """Start every request thread of the worker, each with its database connection open and a
    recall's statements run once, before it accepts a request (memory_service/warmup.py)."""
    from memory_service.warmup import warm_pool

    pool = getattr(worker, "tpool", None)  # the gthread worker's request threads
    if pool is None:
        return
    warmed = warm_pool(pool, worker.cfg.threads)
    worker.log.info("Worker %s: %d request threads warm", worker.pid, warmed)


def worker_exit(server, worker) -> None:
    """In an exiting worker: run Python's exit handlers (the log buffer's last flush among
    them), close the database connections, and end the process there.

    The C++ exit handlers that would run next belong to libraries the master started before
    the fork: ONNX Runtime's, in a forked child, wait on a lock held by a thread the child
    does not have, or abort ("terminate called ... std::system_error"), so every worker
    ended with SIGABRT or hung until gunicorn killed it (docs/deployment.md)."""
    if os.getpid() != worker.pid:
        return  # the master reaping a worker that is gone
    from django.db import connections

    code = _exit_code(sys.exc_info()[1])
    atexit._run_exitfuncs()
    connections.close_all()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _exit_code(exc: BaseException | None) -> int:
    if isinstance(exc, SystemExit):
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0 if exc is None else 1
