#!/usr/bin/env bash
# usage: ROOT=checkout flow.sh NAME: a fresh dev cluster of ROOT, 300 warm-up PUTs, 200 objects of 1 MiB uploaded,
# then GET phases: three 16-client loads of 400 GETs over them (the first is the JIT's warm-up), one of 4 clients, and
# 200 sequential GETs on one client; per phase the CPU of the four JVMs, the coordinator, the pod process and the
# stash servers from /proc/PID/stat, and of the whole machine from /proc/stat, per GET, with TTFB p50 and GET/s.
# With THEN_PUTS=1 (../chunkreuse-20261129/ab.sh), then two 16-client loads of 400 PUTs of 1 MiB, and each JVM's
# direct buffer memory at the end (Micrometer's jvm_buffer_memory_used_bytes{id="direct"}, MiB).
set -euo pipefail
root=${ROOT:?a built checkout}; name=$1; work=/tmp/getinline; bucket=getinline
source "$(cd "$(dirname "$0")/../.." && pwd)/flow-lib.sh"
flow_start
bench latency --count 300 --warmup 0 --pause-ms 0 --sizes 256KiB,1MiB > /dev/null
bench ttfb --sizes 1MiB --objects 200 --clients 16 --run-id hot --only upload > /dev/null
phase get16warm 400 bench ttfb --sizes 1MiB --objects 200 --clients 16 --run-id hot --only read --count 400 --warmup 0
phase get16a 400 bench ttfb --sizes 1MiB --objects 200 --clients 16 --run-id hot --only read --count 400 --warmup 0
phase get16b 400 bench ttfb --sizes 1MiB --objects 200 --clients 16 --run-id hot --only read --count 400 --warmup 0
phase get4 400 bench ttfb --sizes 1MiB --objects 200 --clients 4 --run-id hot --only read --count 400 --warmup 0
phase get1 200 bench ttfb --sizes 1MiB --objects 200 --clients 1 --run-id hot --only read --count 200 --warmup 0
if [ "${THEN_PUTS:-0}" = 1 ]; then
  direct() { curl -s "http://127.0.0.1:$1/metrics" | awk '$1 ~ /^jvm_buffer_memory_used_bytes[{].*id="direct"/ {s += $2} END {printf "%.0f", s / 1048576}'; }
  phase put16a 400 bench throughput --ops PUT --sizes 1MiB --clients 16 --count 400
  phase put16b 400 bench throughput --ops PUT --sizes 1MiB --clients 16 --count 400
  echo "$name direct buffer memory at the end, MiB: coordinator $(direct 9490) pods $(direct 9480) stash $(direct 9470) + $(direct 9471)"
fi
flow_stop
