#!/usr/bin/env bash
# The lease service side by side with raw JetStream (docs/benchmarks.md).
#
# Starts, and says so: a private nats-server 2.11+ (JetStream, temporary store,
# free port) and the dagnats fat JAR against it. Then runs the benchmark, which
# prints a table and writes JSON to benchmarks/target/bench.json.
#
#   scripts/bench.sh                     the full matrix (about 13 minutes)
#   BENCH_CLIENTS=1,16 BENCH_LEASES=10 scripts/bench.sh    a quick look (BENCH_RUN_MS under 3000 leaves the JIT busy)
#   BENCH_ROUNDS (default 3)             windows per row, taken in turn: service, baseline, raw, relay, hop, again
#   scripts/bench.sh soak [minutes]      heap of dagnats under a steady renew load (default 10)
#   scripts/bench.sh list                an operator's full listing of 100 000 leases, pages of 1000
#   scripts/bench.sh shards              issue 31: 10 000 shards over 10 member processes (TTL 15 s): keep-alive writes/s, kill -9 heal, a join's moves
#   scripts/bench.sh wait                waiters of a held key: acquires per waiter per minute, release to next owner
#                                        (WAIT_WAITERS=1,100 WAIT_TTL_MS=15000 WAIT_WINDOW_MS=60000 WAIT_HANDOVERS=50)
#   scripts/bench.sh handover            leaderless gap: planned handover, release and reacquire, kill -9 (TTL expiry)
#                                        beside one service round trip (a renew; HANDOVER_ROUND_TRIPS=5000, after as many to warm up)
#                                        (HANDOVER_RUNS=50 HANDOVER_TTL_MS=15000 HANDOVER_KILL_RUNS=10 HANDOVER_KILL_TTL_MS=2000)
#   scripts/bench.sh profile [dir]       the matrix (BENCH_OPS, BENCH_CLIENTS, ... as above; default renew, acquire and
#                                        owner at 1 and 64 clients, 10 leases) with a JFR recording of dagnats per
#                                        service run, <dir>/<op>-<leases>-<clients>.jfr (default benchmarks/target/profile),
#                                        then scripts/jfr-report.py's summary of each (docs/benchmarks.md, "Profile")
#   DAGNATS_JAVA_OPTS                    extra JVM options for dagnats
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/require-toolchain.sh
mvn -B -q -ntp -Dmaven.test.skip=true package -pl bootstrap,benchmarks -am

. scripts/lib.sh
work=$(mktemp -d)
pids=()
trap 'stop_all; rm -rf "$work"' EXIT
start_private_nats "$work"
nats_pid=${pids[0]}

# shellcheck disable=SC2086 # DAGNATS_JAVA_OPTS is a list of options
java -Xms256m -Xmx256m ${DAGNATS_JAVA_OPTS:-} -jar bootstrap/target/dagnats.jar >"$work/dagnats.log" 2>&1 &
dagnats_pid=$!
pids+=($dagnats_pid)
for _ in $(seq 1 200); do grep -q "serving" "$work/dagnats.log" 2>/dev/null && break; sleep 0.1; done
echo "started: dagnats (pid $dagnats_pid, heap 256 MiB): $(grep serving "$work/dagnats.log" | sed 's/.*serving/serving/')"
# The jnats floor beside it (JnatsRelay): the service's messages and threads, none of its work.
java -Xms256m -Xmx256m -cp benchmarks/target/dagnats-benchmarks.jar io.dagnats.leases.benchmarks.JnatsRelay \
  >"$work/relay.log" 2>&1 &
relay_pid=$!
pids+=($relay_pid)
for _ in $(seq 1 200); do grep -q "relaying" "$work/relay.log" 2>/dev/null && break; sleep 0.1; done
echo "started: the jnats relay (pid $relay_pid, heap 256 MiB): $(cat "$work/relay.log")"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -sr)"
echo

if [ "${1:-}" = soak ]; then
  DAGNATS_PID=$dagnats_pid SOAK_MINUTES=${2:-10} \
    java -cp benchmarks/target/dagnats-benchmarks.jar io.dagnats.leases.benchmarks.RenewSoak
elif [ "${1:-}" = wait ]; then
  java -cp benchmarks/target/dagnats-benchmarks.jar io.dagnats.leases.benchmarks.WaitingBenchmark
elif [ "${1:-}" = handover ]; then
  java -cp benchmarks/target/dagnats-benchmarks.jar io.dagnats.leases.benchmarks.HandoverGap
elif [ "${1:-}" = shards ]; then
  java -cp benchmarks/target/dagnats-benchmarks.jar io.dagnats.leases.benchmarks.ShardSetBenchmark
elif [ "${1:-}" = list ]; then
  java -cp benchmarks/target/dagnats-benchmarks.jar io.dagnats.leases.benchmarks.ListingBenchmark
elif [ "${1:-}" = profile ]; then
  profile=$(realpath -m "${2:-benchmarks/target/profile}")
  rm -rf "$profile"
  # JFR's "profile" settings, sampling each thread every 1 ms (not 10) and up to 5000 allocations a second (not 300).
  java_home=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
  sed -e '/jdk.ExecutionSample/,/<\/event>/s/>10 ms</>1 ms</' -e 's/>300\/s</>5000\/s</' \
    "$java_home/lib/jfr/profile.jfc" >"$work/profile.jfc"
  DAGNATS_PID=$dagnats_pid NATS_PID=$nats_pid RELAY_PID=$relay_pid BENCH_ROUNDS=${BENCH_ROUNDS:-1} BENCH_PROFILE=$profile BENCH_JFC=$work/profile.jfc BENCH_OPS=${BENCH_OPS:-renew,acquire,owner} \
    BENCH_CLIENTS=${BENCH_CLIENTS:-1,64} BENCH_LEASES=${BENCH_LEASES:-10} \
    java -cp benchmarks/target/dagnats-benchmarks.jar io.dagnats.leases.benchmarks.LeaseBenchmark | tee "$profile.txt"
  for recording in "$profile"/*.jfr; do
    scripts/jfr-report.py "$recording" "$(grep -o "recorded $(basename "$recording" .jfr): [0-9]*" "$profile.txt" | awk '{print $3}')"
  done
else
  DAGNATS_PID=$dagnats_pid NATS_PID=$nats_pid RELAY_PID=$relay_pid java -cp benchmarks/target/dagnats-benchmarks.jar io.dagnats.leases.benchmarks.LeaseBenchmark
fi
