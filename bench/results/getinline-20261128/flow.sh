#!/usr/bin/env bash
# usage: ROOT=checkout flow.sh NAME: a fresh dev cluster of ROOT, 300 warm-up PUTs, 200 objects of 1 MiB uploaded,
# then GET phases: three 16-client loads of 400 GETs over them (the first is the JIT's warm-up), one of 4 clients, and
# 200 sequential GETs on one client; per phase the CPU of the four JVMs, the coordinator, the pod process and the
# stash servers from /proc/PID/stat, and of the whole machine from /proc/stat, per GET, with TTFB p50 and GET/s.
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
flow_stop
