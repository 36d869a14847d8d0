#!/usr/bin/env bash
# Runs the dagnats lease service from a fresh clone.
#
# - Builds the fat JAR (bootstrap/target/dagnats.jar) when it is missing or
#   older than the sources.
# - When NATS_URL is not set, starts a local nats-server 2.11+ with JetStream
#   on 127.0.0.1:4222, its store in the git-ignored .data/ folder (fetching
#   the server into .tools/ when none is on PATH), and stops it afterwards.
#   That server runs with `jetstream { sync_interval: always }`: it fsyncs
#   every write before acknowledging it, so a lease write it acknowledged
#   survives a power loss or kernel crash too (docs/deploying.md, "Every write
#   synced"; figures in docs/reliability.md and docs/benchmarks.md).
# - Serves until Ctrl-C or SIGTERM.
#
# Stopping. Ctrl-C (SIGINT to the terminal's process group) or SIGTERM to this
# script asks dagnats to drain: it answers the requests in flight (for up to
# DAGNATS_DRAIN_TIMEOUT_MS) and exits; only then is the local nats-server
# stopped, and the script exits with dagnats' status, 0 after a drain. Only
# this script acts on Ctrl-C: java and mvn run in the background, which
# ignores SIGINT, and the local nats-server runs in a session of its own, so
# it is still there while dagnats drains. A second Ctrl-C or SIGTERM while
# stopping stops hard: dagnats is killed (requests in flight go unanswered),
# the local nats-server is stopped, and the script exits 130 (143 for
# SIGTERM). A signal before dagnats serves (while building or starting the
# server) stops what was started and exits 130 or 143. If dagnats exits on its
# own (it could not start, say), the script exits with its non-zero status.
# The local nats-server is stopped on every way out.
#
# For tests, read by this script only: LOCAL_NATS_PORT (default 4222) and
# LOCAL_NATS_DIR (default .data; the store goes in its nats/ folder, the log
# in nats-server.log) place the local nats-server; NATS_SERVER_BIN names its
# binary (see scripts/nats-server.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

child=""       # the background command waited on now: mvn, then java
dagnats_pid=""
nats_pid=""
stopping=""

# Waits for pid $1 through the signals that interrupt `wait`; returns its status.
wait_for() {
  local status
  while :; do
    status=0
    wait "$1" 2>/dev/null || status=$?
    kill -0 "$1" 2>/dev/null || return "$status"
  done
}

# Runs a command in the background and waits for it, so that a signal is acted
# on at once (bash runs a trap only between foreground commands).
run_child() {
  "$@" &
  child=$!
  local status=0
  wait_for "$child" || status=$?
  child=""
  return "$status"
}

# $1: the exit status the signal calls for (130 for SIGINT, 143 for SIGTERM).
on_signal() {
  if [ -z "$stopping" ]; then
    stopping=$1
    if [ -z "$dagnats_pid" ]; then
      exit "$1" # not serving yet: on_exit stops what was started
    fi
    kill -TERM "$dagnats_pid" 2>/dev/null || true # it drains; the main line waits for it
    # No bare `return` here: in a trap it would return the interrupted wait's
    # status, and `set -e` would end the script before dagnats has drained.
    return 0
  fi
  # A second signal: stop hard.
  [ -z "$child" ] || kill -KILL "$child" 2>/dev/null || true
  [ -z "$nats_pid" ] || kill -KILL "$nats_pid" 2>/dev/null || true
  exit "$1"
}
trap 'on_signal 130' INT
trap 'on_signal 143' TERM

# On every way out: what still runs is stopped, the local nats-server last.
on_exit() {
  if [ -n "$child" ]; then
    kill -TERM "$child" 2>/dev/null || true
    wait_for "$child" || true
  fi
  if [ -n "$nats_pid" ]; then
    kill -TERM "$nats_pid" 2>/dev/null || true
    wait_for "$nats_pid" || true
  fi
}
trap on_exit EXIT

run_child scripts/build-jar.sh
jar=bootstrap/target/dagnats.jar

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
  # A session of its own: Ctrl-C in the terminal cannot reach it, so it
  # outlives dagnats' drain. (A background child is never a process group
  # leader, so setsid runs the server in place and $! is the server.)
  # Fsync before every acknowledgement: with the default (every 2 minutes) a
  # power cut loses acknowledged leases and hands their revisions out again.
  printf 'jetstream { sync_interval: always }\n' >"$data/nats-server.conf"
  setsid "$bin" -a 127.0.0.1 -p "$port" -js -sd "$data/nats" -c "$data/nats-server.conf" \
    >"$data/nats-server.log" 2>&1 &
  nats_pid=$!
  . scripts/lib.sh
  if ! wait_for_port "$port"; then
    echo "the local nats-server did not start; its log:" >&2; cat "$data/nats-server.log" >&2; exit 1
  fi
  echo "started a local $("$bin" --version) on 127.0.0.1:$port (store: $data/nats, sync_interval: always, log: $data/nats-server.log)"
  export NATS_URL="nats://127.0.0.1:$port"
fi

java -jar "$jar" &
child=$!
dagnats_pid=$child
status=0
wait_for "$dagnats_pid" || status=$?
child=""
exit "$status"
