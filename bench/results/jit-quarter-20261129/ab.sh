#!/usr/bin/env bash
# usage: ab.sh RUN... (sixteenth session): A/B of CompileThresholdScaling over steady-20261129/flow.sh with 16 rounds,
# each run after ready_page_cache (flow-lib.sh). A run named B* is bin/shardvault's 0.5, Q* 0.25 (through
# SHARDVAULT_JVM_OPTS, which comes last). Summaries: ../jit-steady-20261129/summarize.py FILE FIRST LAST.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/../../.." && pwd)
source "$root/bench/flow-lib.sh"
fill=/tmp/fill-jitq.sparse
trap 'rm -f "$fill"' EXIT
for run in "$@"; do
  case $run in
    B*) opts="-XX:CompileThresholdScaling=0.5" ;;
    Q*) opts="-XX:CompileThresholdScaling=0.25" ;;
    *) echo "unknown run $run" >&2; exit 2 ;;
  esac
  ready_page_cache "$fill"
  echo "$run $(date -u +%H:%M:%SZ) opts='$opts' load $(cut -d' ' -f1 /proc/loadavg) free $(memfree)"
  SHARDVAULT_JVM_OPTS="$opts" ROUNDS=16 ROOT=$root "$root/bench/results/steady-20261129/flow.sh" "$run"
done
