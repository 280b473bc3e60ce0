#!/usr/bin/env bash
# Started by `make run`: demo tenant, then a Celery worker and the web server.
# Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}

$PY manage.py demo_setup --url "http://$HOST:$PORT"

# The embedded default: one local worker consumes every queue.
.venv/bin/celery -A memory_service worker -Q db,llm,embed --concurrency 2 --loglevel INFO &
WORKER=$!
stop() {
  trap - INT TERM EXIT
  kill -TERM "$WORKER" 2>/dev/null || true
  wait "$WORKER" 2>/dev/null || true
}
trap stop INT TERM EXIT

$PY manage.py runserver "$HOST:$PORT" --noreload
