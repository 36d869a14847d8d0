#!/usr/bin/env bash
# Runs the dagnats lease service from a fresh clone.
#
# - Builds the fat JAR (bootstrap/target/dagnats.jar) when it is missing or
#   older than the sources.
# - When NATS_URL is not set, starts a local nats-server 2.11+ with JetStream
#   on 127.0.0.1:4222, its store in the git-ignored .data/ folder (fetching
#   the server into .tools/ when none is on PATH), and stops it afterwards.
# - Serves until Ctrl-C or SIGTERM, which drains requests in flight.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/build-jar.sh
jar=bootstrap/target/dagnats.jar

nats_pid=""
stop_nats() {
  if [ -n "$nats_pid" ]; then
    kill "$nats_pid" 2>/dev/null || true
    wait "$nats_pid" 2>/dev/null || true
  fi
}
trap stop_nats EXIT

if [ -z "${NATS_URL:-}" ]; then
  port=4222
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "something already listens on 127.0.0.1:$port; set NATS_URL to use it, or stop it" >&2
    exit 1
  fi
  bin=$(scripts/nats-server.sh)
  mkdir -p .data/nats
  "$bin" -a 127.0.0.1 -p "$port" -js -sd "$PWD/.data/nats" >.data/nats-server.log 2>&1 &
  nats_pid=$!
  . scripts/lib.sh
  if ! wait_for_port "$port"; then
    echo "the local nats-server did not start; its log:" >&2; cat .data/nats-server.log >&2; exit 1
  fi
  echo "started a local $("$bin" --version) on 127.0.0.1:$port (store: .data/nats, log: .data/nats-server.log)"
  export NATS_URL="nats://127.0.0.1:$port"
fi

java -jar "$jar" &
dagnats_pid=$!
trap 'kill -TERM "$dagnats_pid" 2>/dev/null || true' TERM INT
status=0
wait "$dagnats_pid" || status=$?
# A signal interrupts the first wait; wait again for dagnats to finish draining.
if kill -0 "$dagnats_pid" 2>/dev/null; then
  wait "$dagnats_pid" || status=$?
fi
exit "$status"
