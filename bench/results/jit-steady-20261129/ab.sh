#!/usr/bin/env bash
# usage: ab.sh RUN... (thirteenth session): A/B of CompileThresholdScaling over steady-20261129/flow.sh with 16
# rounds, each run on a page cache filled first (flow-lib.sh) and after the load average fell below 1. A run named
# A* is the threshold as shipped until this A/B (2.0), B* 0.5 (bin/shardvault's since), C* the JVM's default 1.0;
# SHARDVAULT_JVM_OPTS comes last, so it overrides bin/shardvault's own. Summaries: summarize.py FILE[,FILE...] R1 R2.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/../../.." && pwd)
source "$root/bench/flow-lib.sh"
for run in "$@"; do
  case $run in
    A*) opts="-XX:CompileThresholdScaling=2.0" ;;
    B*) opts="-XX:CompileThresholdScaling=0.5" ;;
    C*) opts="-XX:CompileThresholdScaling=1.0" ;;
  esac
  fill_page_cache /tmp/fill.sparse
  wait_for_quiet
  echo "$run $(date -u +%H:%M:%SZ) opts='$opts' load $(cut -d' ' -f1 /proc/loadavg)"
  SHARDVAULT_JVM_OPTS="$opts" ROUNDS=16 ROOT=$root "$root/bench/results/steady-20261129/flow.sh" "$run"
done
rm -f /tmp/fill.sparse
