#!/usr/bin/env bash
# usage: ab.sh RUN... (sixteenth session): A/B of JDK 25's compact object headers (JEP 519, a product flag since 25)
# over steady-20261129/flow.sh with 8 rounds, every JVM (services and the bench client) on Temurin 25, no AOT cache,
# each run after ready_page_cache (flow-lib.sh). A* = as shipped, H* = -XX:+UseCompactObjectHeaders in every service
# (SHARDVAULT_JVM_OPTS). Summaries: ../jit-steady-20261129/summarize.py FILE FIRST LAST.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/../../.." && pwd)
source "$root/bench/flow-lib.sh"
export JAVA_HOME=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
fill=/tmp/fill-coh.sparse
trap 'rm -f "$fill"' EXIT
for run in "$@"; do
  case $run in
    A*) opts="" ;;
    H*) opts="-XX:+UseCompactObjectHeaders" ;;
    *) echo "unknown run $run" >&2; exit 2 ;;
  esac
  ready_page_cache "$fill"
  echo "$run $(date -u +%H:%M:%SZ) opts='$opts' $("$JAVA_HOME/bin/java" -version 2>&1 | head -1) load $(cut -d' ' -f1 /proc/loadavg) free $(memfree)"
  SHARDVAULT_JVM_OPTS="$opts" ROUNDS=8 ROOT=$root "$root/bench/results/steady-20261129/flow.sh" "$run"
done
