#!/usr/bin/env bash
# Compiler settings on the same build, one after the other, nothing else running, by default in the order
# A B D D B A (ORDER="..." for others, C included):
#   A: as bin/shardvault set it when this ran (C1 and C2 in all four, CompileThresholdScaling=2.0, JDK 17);
#      reproduced now by asking pods and stash for tier 4 again
#   B: A, with the pods and the stash servers on C1 only (-XX:TieredStopAtLevel=1): most of their work is
#      system calls and RocksDB's native code, where C2's code buys little and its compilations cost much.
#      bin/shardvault sets this since (it ran then as SHARDVAULT_{POD,STASH}_JVM_OPTS=-XX:TieredStopAtLevel=1)
#   C: A on the machine's second JDK (Temurin 25; the bench client runs on it too)
#   D: all four services on C1 only (as the it/ process clusters run)
# Each run is ../syncfs-tls-20261126/flow.sh (a fresh dev cluster, 1,500 warm-up PUTs, 200 sequential 256 KiB
# PUTs, three 16-client loads of 400 PUTs of 1 MiB; per phase the CPU of the four JVMs, their compiler threads'
# part, and the whole machine's, per PUT).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export ROOT=${ROOT:-$(cd "$here/../../.." && pwd)}
flow=$here/../syncfs-tls-20261126/flow.sh
run() {
  local name=$1
  echo "== $name $(date -u +%H:%M:%SZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
  case $name in
    A*) SHARDVAULT_POD_JVM_OPTS=-XX:TieredStopAtLevel=4 SHARDVAULT_STASH_JVM_OPTS=-XX:TieredStopAtLevel=4 "$flow" "$name" ;;
    B*) "$flow" "$name" ;;
    C*) JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 "$flow" "$name" ;;
    D*) "$flow" "$name" -XX:TieredStopAtLevel=1 ;;
  esac
}
# flow.sh ends with a grep -c that exits 1 when it counts 0 lines: not a failed run.
for name in ${ORDER:-A1 B1 D1 D2 B2 A2}; do run "$name" || echo "$name: flow.sh exited $?"; done
