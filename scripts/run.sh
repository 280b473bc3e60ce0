#!/usr/bin/env bash
# Started by `make run`: demo tenant, then a Celery worker and the web server.
# Ctrl-C (or SIGTERM to this script) stops both.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}
# The local demo binds to loopback with no proxy in front: let this host scrape /metrics
# without a token (a deployment behind a proxy sets METRICS_TOKEN instead).
export METRICS_ALLOW_LOOPBACK=${METRICS_ALLOW_LOOPBACK:-true}

$PY manage.py demo_setup --url "http://$HOST:$PORT"

pids=()
stop() {
  trap - INT TERM EXIT
  kill -TERM "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT

# The embedded default: one local worker consumes every queue.
# -B: beat runs inside this worker (the periodic sweep of stuck or failed turns, settings.CELERY_BEAT_SCHEDULE).
mkdir -p "${MEMORY_VAR_DIR:-var}"
.venv/bin/celery -A memory_service worker -B --schedule "${MEMORY_VAR_DIR:-var}/celerybeat-schedule" -Q db,llm,embed --concurrency 2 --loglevel INFO &
pids+=($!)
$PY manage.py runserver "$HOST:$PORT" --noreload &
pids+=($!)
# Both run in the background so this shell can act on signals at once;
# when either one exits, the trap stops the other.
wait -n
