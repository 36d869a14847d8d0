#!/usr/bin/env bash
# What tracing costs per request: starts a private nats-server (JetStream, in
# a temporary directory) and runs the TracingCost benchmark against it, which
# starts dagnats in-process with telemetry off and on. Prints a table.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/require-toolchain.sh
mvn -B -q -ntp -Dmaven.test.skip=true package -pl benchmarks -am

. scripts/lib.sh
work=$(mktemp -d)
pids=()
trap 'stop_all; rm -rf "$work"' EXIT
start_private_nats "$work"

java -jar benchmarks/target/dagnats-benchmarks.jar 2>&1 | grep -v '^SLF4J'
