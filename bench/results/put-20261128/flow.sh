#!/usr/bin/env bash
# usage: ROOT=checkout [WARMUP=N] flow.sh NAME: a fresh dev cluster of ROOT, WARMUP (1,500) warm-up PUTs of each of
# 256 KiB and 1 MiB, then PUT phases as the peer comparison runs them (sequential 256 KiB and 1 MiB with 10 ms pauses,
# two 16-client loads of 1 MiB); per phase the CPU of the four JVMs and of the coordinator from /proc/PID/stat, and of
# the whole machine from /proc/stat, per PUT.
set -euo pipefail
root=${ROOT:?a built checkout}; name=$1; work=/tmp/putpath; bucket=putpath
source "$(cd "$(dirname "$0")/../.." && pwd)/flow-lib.sh"
# A flow beside this one may add to each phase (FLOW_HOOKS: a file sourced here that wraps phase, as
# ../stashgroup-20261129/stash-meters.sh does).
[ -z "${FLOW_HOOKS:-}" ] || source "$FLOW_HOOKS"
flow_start
bench latency --count "${WARMUP:-1500}" --warmup 0 --pause-ms 0 --sizes 256KiB,1MiB > /dev/null
phase seq256K 100 bench latency --count 100 --warmup 0 --pause-ms 10 --sizes 256KiB
phase seq1M 100 bench latency --count 100 --warmup 0 --pause-ms 10 --sizes 1MiB
phase put16a 400 bench throughput --clients 16 --sizes 1MiB --count 400 --ops PUT
phase put16b 400 bench throughput --clients 16 --sizes 1MiB --count 400 --ops PUT
flow_stop
