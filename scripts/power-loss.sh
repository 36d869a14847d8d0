#!/usr/bin/env bash
# The power-loss matrix (docs/reliability.md, "Power loss"): one node and a
# 3-node R3 cluster, each with the default sync_interval, the default with
# unsynced data written back after 3 s (as a kernel's writeback would, sooner),
# and sync_interval: always; every nats-server and the dagnats instance killed
# at once and what their stores had not fsynced dropped (scripts/lazyfs.py),
# under wire holders that follow the holder rules. About 35 minutes at 20 cuts
# per configuration. Prints a RELIABILITY line per cut and per configuration,
# also appended to acceptance-tests/target/reliability.txt. Run by hand, not by
# scripts/test.sh (which runs a two-cut smoke version).
#
#   scripts/power-loss.sh                       20 cuts per configuration
#   POWER_LOSS_CUTS=5 scripts/power-loss.sh     fewer
#   POWER_LOSS_CONFIGURATIONS=1:always:0,3:default:3 scripts/power-loss.sh
#                                               nodes:sync_interval:writeback seconds (0: never)
set -euo pipefail
cd "$(dirname "$0")/.."
args=(-Dpower.loss.cuts="${POWER_LOSS_CUTS:-20}")
[ -z "${POWER_LOSS_CONFIGURATIONS:-}" ] || args+=(-Dpower.loss.configurations="$POWER_LOSS_CONFIGURATIONS")
exec scripts/test.sh -pl acceptance-tests -am -o -Dtest='PowerLossAcceptanceTest#powerCutsInEveryConfiguration' \
  -Dsurefire.failIfNoSpecifiedTests=false "${args[@]}" "$@"
