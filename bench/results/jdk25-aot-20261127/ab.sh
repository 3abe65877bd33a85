#!/usr/bin/env bash
# Issue #18, the JIT's share: the same build (ROOT) three ways, one after the other, nothing else running:
#   A = the machine's default JDK 17, B = Temurin 25, C = Temurin 25 with an AOT cache for the coordinator
#   (JEP 483/514/515: loaded classes and method profiles), trained first by one unmeasured run T of the same flow.
# Order T A1 B1 C1 C2 B2 A2.   ROOT=/work/main bench/results/jdk25-aot-20261127/ab.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export ROOT=${ROOT:-$(cd "$here/../../.." && pwd)}
jdk25=/usr/lib/jvm/temurin-25-jdk-amd64
cache=/tmp/aotab/coordinator.aot
mkdir -p /tmp/aotab
for name in ${ORDER:-T A1 B1 C1 C2 B2 A2}; do
  echo "== $name $(date -u +%H:%M:%SZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
  case $name in
    T*) rm -f "$cache"; JAVA_HOME=$jdk25 COORD_OPTS="-XX:AOTCacheOutput=$cache" "$here/flow.sh" "$name" ;;
    A*) JAVA_HOME= COORD_OPTS="" "$here/flow.sh" "$name" ;;
    B*) JAVA_HOME=$jdk25 COORD_OPTS="" "$here/flow.sh" "$name" ;;
    C*) JAVA_HOME=$jdk25 COORD_OPTS="-XX:AOTCache=$cache" "$here/flow.sh" "$name" ;;
  esac || echo "$name: flow.sh exited $?"
done
