#!/usr/bin/env bash
# Runs the dagnats lease service from a fresh clone.
#
# - Builds the fat JAR (bootstrap/target/dagnats.jar) when it is missing or
#   older than the sources.
# - When NATS_URL is not set, starts a local nats-server 2.11+ with JetStream
#   on 127.0.0.1:4222, its store in the git-ignored .data/ folder (fetching
#   the server into .tools/ when none is on PATH), and stops it afterwards.
# - Serves until Ctrl-C or SIGTERM, which drains requests in flight.
#
# For tests, read by this script only: LOCAL_NATS_PORT (default 4222) and
# LOCAL_NATS_DIR (default .data; the store goes in its nats/ folder, the log
# in nats-server.log) place the local nats-server; NATS_SERVER_BIN names its
# binary (see scripts/nats-server.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/require-toolchain.sh

jar=bootstrap/target/dagnats.jar
stale=""
if [ -f "$jar" ]; then
  stale=$(find domain application adapters-nats adapters-otel bootstrap pom.xml \
    \( -name '*.java' -o -name pom.xml \) -newer "$jar" -print -quit)
fi
if [ ! -f "$jar" ] || [ -n "$stale" ]; then
  echo "building $jar"
  mvn -B -q -ntp -Dmaven.test.skip=true package -pl bootstrap -am
fi

nats_pid=""
stop_nats() {
  if [ -n "$nats_pid" ]; then
    kill "$nats_pid" 2>/dev/null || true
    wait "$nats_pid" 2>/dev/null || true
  fi
}
trap stop_nats EXIT

if [ -z "${NATS_URL:-}" ]; then
  port=${LOCAL_NATS_PORT:-4222}
  data=${LOCAL_NATS_DIR:-.data}
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "something already listens on 127.0.0.1:$port; set NATS_URL to use it, or stop it" >&2
    exit 1
  fi
  bin=$(scripts/nats-server.sh)
  mkdir -p "$data/nats"
  data=$(cd "$data" && pwd)
  "$bin" -a 127.0.0.1 -p "$port" -js -sd "$data/nats" >"$data/nats-server.log" 2>&1 &
  nats_pid=$!
  . scripts/lib.sh
  if ! wait_for_port "$port"; then
    echo "the local nats-server did not start; its log:" >&2; cat "$data/nats-server.log" >&2; exit 1
  fi
  echo "started a local $("$bin" --version) on 127.0.0.1:$port (store: $data/nats, log: $data/nats-server.log)"
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
