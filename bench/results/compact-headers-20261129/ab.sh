#!/usr/bin/env bash
# usage: ab.sh RUN... (sixteenth session): A/B of JDK 25's compact object headers (JEP 519, a product flag since 25)
# over steady-20261129/flow.sh with 8 rounds, every JVM (services and the bench client) on Temurin 25, no AOT cache,
# each run after ready_page_cache (flow-lib.sh's ab_options). A* = as shipped, H* = -XX:+UseCompactObjectHeaders in
# every service. Summaries: ../jit-steady-20261129/summarize.py FILE FIRST LAST.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/../../.." && pwd)
source "$root/bench/flow-lib.sh"
export JAVA_HOME=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
AB_OPTS_A="" AB_OPTS_H="-XX:+UseCompactObjectHeaders" ROUNDS=8 \
  ab_options "$root/bench/results/steady-20261129/flow.sh" "$@"
