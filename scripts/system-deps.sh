#!/usr/bin/env bash
# System packages the test suite drives for real: Redis (broker integration
# test), Debian's Chromium + chromedriver (dashboard browser tests), HAProxy
# (the many-hosts drill, scripts/hosts/drill.py) and PgBouncer
# (tests/integration/test_pgbouncer_postgresql.py).
set -euo pipefail
missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
command -v pgbouncer >/dev/null 2>&1 || [ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "Missing system packages: ${missing[*]}. Install them (sudo apt-get install -y ${missing[*]}) and run again." >&2
  exit 1
fi
echo "Installing ${missing[*]} from Debian…"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
