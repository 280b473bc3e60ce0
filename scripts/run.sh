#!/usr/bin/env bash
# Started by `make run` (gunicorn, see gunicorn.conf.py) or `make dev` (Django's
# runserver, which reloads on code changes; for development only): the demo
# tenant, then the web server and one Celery worker.
# A worker that exits is started again; the web server keeps serving meanwhile.
# If the web server exits, everything stops. Ctrl-C (or SIGTERM) stops both.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
MODE=${1:-run}
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}
WORKER_RESTART_SECONDS=${WORKER_RESTART_SECONDS:-2}
# The local demo binds to loopback with no proxy in front: let this host scrape /metrics
# without a token (a deployment behind a proxy sets METRICS_TOKEN instead).
export METRICS_ALLOW_LOOPBACK=${METRICS_ALLOW_LOOPBACK:-true}

# The demo key is kept across starts (var/demo_api_key); ROTATE_KEY=1 revokes it and prints a new one.
ROTATE=()
case "${ROTATE_KEY:-}" in 1|true|yes) ROTATE=(--rotate-key) ;; esac
$PY manage.py demo_setup --url "http://$HOST:$PORT" "${ROTATE[@]}"

web=
worker=
stop() {
  trap - INT TERM EXIT
  kill -TERM $web $worker 2>/dev/null || true
  wait 2>/dev/null || true
}
trap 'stop; echo "run.sh: stopped." >&2; exit 0' INT TERM
trap stop EXIT

start_worker() {
  # The embedded default: one local worker consumes every queue. -B: beat runs inside
  # it (the periodic sweep of stuck or failed turns, settings.CELERY_BEAT_SCHEDULE).
  mkdir -p "${MEMORY_VAR_DIR:-var}"
  .venv/bin/celery -A memory_service worker -B --schedule "${MEMORY_VAR_DIR:-var}/celerybeat-schedule" \
    -Q db,llm,embed --concurrency 2 --loglevel INFO &
  worker=$!
}

if [ "$MODE" = dev ]; then
  DEBUG=${DEBUG:-true} $PY manage.py runserver "$HOST:$PORT" &
else
  # Static files come from var/staticfiles through WhiteNoise (DEBUG is off).
  $PY manage.py collectstatic --noinput -v 0
  .venv/bin/gunicorn -c gunicorn.conf.py --bind "$HOST:$PORT" &
fi
web=$!
start_worker

# Both run in the background so this shell can act on signals at once.
while true; do
  status=0
  finished=
  wait -n -p finished "$web" "$worker" || status=$?
  if [ "${finished:-}" = "$web" ] || ! kill -0 "$web" 2>/dev/null; then
    # Ctrl-C reaches the web server too, and it may stop before this shell runs its trap:
    # a web server that stopped cleanly (0, or 130 after SIGINT) is a stop, not a failure.
    if [ "$status" -eq 0 ] || [ "$status" -eq 130 ]; then
      echo "run.sh: stopped." >&2
      exit 0
    fi
    echo "run.sh: the web server exited (status $status); stopping the worker. Its log is above." >&2
    exit 1
  fi
  if ! kill -0 "$worker" 2>/dev/null; then
    echo "run.sh: the Celery worker exited; starting it again in ${WORKER_RESTART_SECONDS}s." >&2
    sleep "$WORKER_RESTART_SECONDS"
    start_worker
  fi
done
