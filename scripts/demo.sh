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

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo 14222)
bin=$(scripts/nats-server.sh)
"$bin" -a 127.0.0.1 -p "$port" -js -sd "$work/nats" >"$work/nats.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
export NATS_URL="nats://127.0.0.1:$port"
echo "nats-server on $NATS_URL"

java -jar bootstrap/target/dagnats.jar 2>&1 | sed -u 's/^/[dagnats] /' &
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
