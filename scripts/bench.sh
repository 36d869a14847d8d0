#!/usr/bin/env bash
# The lease service side by side with raw JetStream (docs/benchmarks.md).
#
# Starts, and says so: a private nats-server 2.11+ (JetStream, temporary store,
# free port) and the dagnats fat JAR against it. Then runs the benchmark, which
# prints a table and writes JSON to benchmarks/target/bench.json.
#
#   scripts/bench.sh                     the full matrix (about 8 minutes)
#   BENCH_CLIENTS=1,16 BENCH_LEASES=10 BENCH_RUN_MS=1000 scripts/bench.sh    a quick look
#   scripts/bench.sh soak [minutes]      heap of dagnats under a steady renew load (default 10)
#   scripts/bench.sh list                an operator's full listing of 100 000 leases, pages of 1000
#   scripts/bench.sh wait                waiters of a held key: acquires per waiter per minute, release to next owner
#                                        (WAIT_WAITERS=1,100 WAIT_TTL_MS=15000 WAIT_WINDOW_MS=60000 WAIT_HANDOVERS=50)
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/require-toolchain.sh
mvn -B -q -ntp -Dmaven.test.skip=true package -pl bootstrap,benchmarks -am

. scripts/lib.sh
work=$(mktemp -d)
pids=()
trap 'stop_all; rm -rf "$work"' EXIT
start_private_nats "$work"

java -Xms256m -Xmx256m -jar bootstrap/target/dagnats.jar >"$work/dagnats.log" 2>&1 &
dagnats_pid=$!
pids+=($dagnats_pid)
for _ in $(seq 1 200); do grep -q "serving" "$work/dagnats.log" 2>/dev/null && break; sleep 0.1; done
echo "started: dagnats (pid $dagnats_pid, heap 256 MiB): $(grep serving "$work/dagnats.log" | sed 's/.*serving/serving/')"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -sr)"
echo

if [ "${1:-}" = soak ]; then
  DAGNATS_PID=$dagnats_pid SOAK_MINUTES=${2:-10} \
    java -cp benchmarks/target/dagnats-benchmarks.jar io.dagnats.leases.benchmarks.RenewSoak
elif [ "${1:-}" = wait ]; then
  java -cp benchmarks/target/dagnats-benchmarks.jar io.dagnats.leases.benchmarks.WaitingBenchmark
elif [ "${1:-}" = list ]; then
  java -cp benchmarks/target/dagnats-benchmarks.jar io.dagnats.leases.benchmarks.ListingBenchmark
else
  DAGNATS_PID=$dagnats_pid java -cp benchmarks/target/dagnats-benchmarks.jar io.dagnats.leases.benchmarks.LeaseBenchmark
fi
