#!/usr/bin/env bash
# usage: ab.sh RUN... (seventeenth session): A/B of JDK 25's -XX:+AOTCompileEagerly (experimental) over
# steady-20261129/flow.sh with 8 rounds, every JVM (services and the bench client) on Temurin 25 with the AOT caches
# of bin/shardvault in AOT_DIR (/tmp/aot-eager), each run after ready_page_cache (flow-lib.sh's ab_options).
# T* = the training run (the first run of these JARs writes the caches when it stops; not a measurement),
# C* = the caches as shipped, E* = the caches and -XX:+AOTCompileEagerly in every service: C2 compiles at start-up
# what the training run compiled, instead of when each method's counters reach the threshold again.
# Summaries: ../jit-steady-20261129/summarize.py FILE FIRST LAST.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/../../.." && pwd)
source "$root/bench/flow-lib.sh"
export JAVA_HOME=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
export SHARDVAULT_AOT_DIR=${AOT_DIR:-/tmp/aot-eager}
AB_OPTS_T="" AB_OPTS_C="" AB_OPTS_E="-XX:+UnlockExperimentalVMOptions -XX:+AOTCompileEagerly" ROUNDS=8 \
  ab_options "$root/bench/results/steady-20261129/flow.sh" "$@"
