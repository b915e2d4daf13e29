#!/usr/bin/env bash
# Starts the server the way a newcomer does (embedded defaults, fresh DATA_DIR) and checks that
# /healthz and /docs answer within 10 seconds of the start.
set -euo pipefail
cd "$(dirname "$0")/.."
port="${SMOKE_PORT:-18765}"
data_dir="$(mktemp -d)"
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$data_dir"' EXIT
started=$(date +%s%N)
env -u DATABASE_URL -u REDIS_URL DATA_DIR="$data_dir" PORT="$port" LOG_LEVEL=warn npm start --silent >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 200); do
  if curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && curl -sf "http://127.0.0.1:$port/docs" >/dev/null; then
    elapsed_ms=$(( ($(date +%s%N) - started) / 1000000 ))
    echo "healthz and docs answered ${elapsed_ms} ms after npm start"
    if [ "$elapsed_ms" -gt 10000 ]; then echo "slower than the 10 s budget" >&2; exit 1; fi
    exit 0
  fi
  sleep 0.1
done
echo "the server did not answer within 20 s" >&2
exit 1
