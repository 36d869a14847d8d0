#!/usr/bin/env bash
# The holder library in action: three replicas in separate processes elect a
# leader for "demo-leader", a caller forwards to whoever leads, the leader's
# process is killed (kill -9) and another takes over, then everything stops.
#
#   scripts/demo.sh            about 25 seconds, on a private nats-server
#   scripts/demo.sh shards     about 40 seconds: a shard set of 12 shards on
#                              replicas that join, leave and get killed (-9),
#                              ending with a check that no shard was ever
#                              owned by two replicas at once
#
# Ctrl-C stops it early, as quietly as the normal end: the replicas and the
# caller first, then dagnats (which drains), then the nats-server, which runs
# in a session of its own so Ctrl-C cannot stop it under the others.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-leader}
case "$mode" in
  leader|shards) ;;
  *) echo "usage: scripts/demo.sh [shards]" >&2; exit 2 ;;
esac

scripts/require-toolchain.sh
echo "building the service and the demo"
mvn -B -q -ntp -Dmaven.test.skip=true package -pl bootstrap,demo -am

. scripts/lib.sh
work=$(mktemp -d)
pids=()    # the nats-server, then dagnats
clients=() # the replicas and the caller
relay=""
finish() {
  trap '' INT TERM # a second Ctrl-C must not leave processes behind
  stop_pids "${clients[@]}"
  stop_all
  if [ -n "$relay" ]; then
    exec {dagnats_out}>&-
    wait "$relay" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap finish EXIT
trap 'echo "=== interrupted: stopping everything ==="; exit 130' INT
trap 'exit 143' TERM
start_private_nats "$work"

# dagnats' lines go through a relay that prefixes them and ignores Ctrl-C, so
# its last lines (the drain) are printed too.
exec {dagnats_out}> >(trap '' INT; exec sed -u 's/^/[dagnats] /')
relay=$!
java -jar bootstrap/target/dagnats.jar >&"$dagnats_out" 2>&1 &
pids+=($!)
sleep 2

if [ "$mode" = shards ]; then
  declare -A shard_pid
  mkdir -p "$work/ownership"
  join() {
    echo "=== $1 joins the shard set ==="
    java -jar demo/target/dagnats-demo.jar shard-replica "$1" "$work/ownership/$1.log" &
    shard_pid[$1]=$!
    clients+=($!)
  }
  java -jar demo/target/dagnats-demo.jar shard-spread &
  clients+=($!)
  for name in alpha bravo charlie; do join "$name"; done
  sleep 8
  join delta
  sleep 6
  echo "=== bravo leaves (SIGTERM: drains and releases its shards) ==="
  kill "${shard_pid[bravo]}"
  wait "${shard_pid[bravo]}" 2>/dev/null || true
  sleep 6
  echo "=== killing charlie's process (pid ${shard_pid[charlie]}) with kill -9: its shards free up within its TTL ==="
  kill -9 "${shard_pid[charlie]}"
  wait "${shard_pid[charlie]}" 2>/dev/null || true
  sleep 8
  echo "=== demo over: stopping everything ==="
  stop_pids "${clients[@]}"
  clients=()
  java -jar demo/target/dagnats-demo.jar shard-check "$work/ownership"
  exit 0
fi

declare -A replica_pid
for name in alpha bravo charlie; do
  java -jar demo/target/dagnats-demo.jar replica "$name" &
  replica_pid[$name]=$!
  clients+=($!)
done
sleep 3
java -jar demo/target/dagnats-demo.jar caller &
clients+=($!)
sleep 6

leader=$(java -cp demo/target/dagnats-demo.jar io.dagnats.leases.demo.WhoLeads 2>/dev/null || true)
if [ -n "$leader" ] && [ -n "${replica_pid[$leader]:-}" ]; then
  echo "=== killing the leader's process ($leader, pid ${replica_pid[$leader]}) with kill -9 ==="
  kill -9 "${replica_pid[$leader]}"
  wait "${replica_pid[$leader]}" 2>/dev/null || true # reaped now, so no "Killed" notice later
fi
sleep 10
echo "=== demo over: stopping everything ==="
