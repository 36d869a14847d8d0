#!/usr/bin/env bash
# What tracing costs per request: starts a private nats-server (JetStream, in
# a temporary directory) and runs the TracingCost benchmark against it, which
# starts dagnats in-process with telemetry off and on. Prints a table.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/require-toolchain.sh
mvn -B -q -ntp -Dmaven.test.skip=true package -pl benchmarks -am

work=$(mktemp -d)
bin=$(scripts/nats-server.sh)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$bin" -a 127.0.0.1 -p "$port" -js -sd "$work/nats" >"$work/nats.log" 2>&1 &
nats_pid=$!
trap 'kill $nats_pid 2>/dev/null; wait $nats_pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
echo "started a private $("$bin" --version) on 127.0.0.1:$port"

NATS_URL="nats://127.0.0.1:$port" java -jar benchmarks/target/dagnats-benchmarks.jar 2>&1 | grep -v '^SLF4J'
