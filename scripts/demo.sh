#!/usr/bin/env bash
# The holder library in action: three replicas in separate processes elect a
# leader for "demo-leader", a caller forwards to whoever leads, the leader's
# process is killed (kill -9) and another takes over, then everything stops.
#
#   scripts/demo.sh            about 25 seconds, on a private nats-server
#
# Ctrl-C stops it early, as quietly as the normal end: the replicas and the
# caller first, then dagnats (which drains), then the nats-server, which runs
# in a session of its own so Ctrl-C cannot stop it under the others.
set -euo pipefail
cd "$(dirname "$0")/.."

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
