#!/usr/bin/env bash
# Renew latency with the default sync_interval and with sync_interval: always
# (docs/benchmarks.md, "Durability"): for each, a local nats-server started as
# scripts/run.sh starts it (JetStream, store on this machine's disk under the
# git-ignored .data/), the dagnats fat JAR on it, and one client renewing one
# lease back to back (RenewLatency). The two settings take turns, ROUNDS times.
#
#   scripts/bench-sync.sh            2 rounds of 3000 renews each
#   ROUNDS=3 RENEWS=5000 scripts/bench-sync.sh
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/require-toolchain.sh
mvn -B -q -ntp -Dmaven.test.skip=true package -pl bootstrap,benchmarks -am
. scripts/lib.sh
bin=$(scripts/nats-server.sh)
mkdir -p .data
work=$(mktemp -d "$PWD/.data/bench-sync-XXXXXX")
pids=()
trap 'stop_all; rm -rf "$work"' EXIT
printf 'jetstream { sync_interval: always }\n' >"$work/always.conf"
echo "machine: $(nproc) cores, $(uname -sr), store on $(df -T "$work" | awk 'NR==2 {print $2 " (" $1 ")"}'); $("$bin" --version)"

for round in $(seq 1 "${ROUNDS:-2}"); do
  for mode in default always; do
    dir="$work/$round-$mode"; mkdir -p "$dir/nats"
    port=$(free_port)
    config=(); [ "$mode" = always ] && config=(-c "$work/always.conf")
    "$bin" -a 127.0.0.1 -p "$port" -js -sd "$dir/nats" "${config[@]}" >"$dir/nats-server.log" 2>&1 &
    pids=($!)
    wait_for_port "$port"
    NATS_URL="nats://127.0.0.1:$port" java -jar bootstrap/target/dagnats.jar >"$dir/dagnats.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 200); do grep -q "serving" "$dir/dagnats.log" 2>/dev/null && break; sleep 0.1; done
    NATS_URL="nats://127.0.0.1:$port" java -cp benchmarks/target/dagnats-benchmarks.jar \
      io.dagnats.leases.benchmarks.RenewLatency "round $round, sync_interval $mode" "${RENEWS:-3000}"
    stop_all
  done
done
