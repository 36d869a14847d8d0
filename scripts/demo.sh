#!/usr/bin/env bash
# The holder library in action: three replicas in separate processes elect a
# leader for "demo-leader", a caller forwards to whoever leads, the leader's
# process is killed (kill -9) and another takes over, then everything stops.
#
#   scripts/demo.sh            about 25 seconds, on a private nats-server
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/require-toolchain.sh
echo "building the service and the demo"
mvn -B -q -ntp -Dmaven.test.skip=true package -pl bootstrap,demo -am

. scripts/lib.sh
work=$(mktemp -d)
pids=()
trap 'stop_all; rm -rf "$work"' EXIT
start_private_nats "$work"

# Process substitution, not a pipe, so that $! is dagnats itself and the exit trap stops it.
java -jar bootstrap/target/dagnats.jar > >(sed -u 's/^/[dagnats] /') 2>&1 &
pids+=($!)
sleep 2

declare -A replica_pid
for name in alpha bravo charlie; do
  java -jar demo/target/dagnats-demo.jar replica "$name" &
  replica_pid[$name]=$!
  pids+=($!)
done
sleep 3
java -jar demo/target/dagnats-demo.jar caller &
pids+=($!)
sleep 6

leader=$(java -cp demo/target/dagnats-demo.jar io.dagnats.leases.demo.WhoLeads 2>/dev/null || true)
if [ -n "$leader" ] && [ -n "${replica_pid[$leader]:-}" ]; then
  echo "=== killing the leader's process ($leader, pid ${replica_pid[$leader]}) with kill -9 ==="
  kill -9 "${replica_pid[$leader]}"
fi
sleep 10
echo "=== demo over: stopping everything ==="
