#!/usr/bin/env bash
# usage: ROOT=checkout flow.sh NAME: the PUT flow of ../put-20261128/flow.sh with its warm-up measured too (the first
# 100 PUTs apart): a fresh dev cluster, 100 + 1,400 sequential PUTs without pauses (half 256 KiB, half 1 MiB), then
# sequential 256 KiB and 1 MiB PUTs with 10 ms pauses and two 16-client loads of 1 MiB; per phase the CPU per PUT of
# the four JVMs and of their JIT compiler and GC threads.
set -euo pipefail
root=${ROOT:?a built checkout}; name=$1; work=/tmp/jitflow; bucket=jitflow
source "$(cd "$(dirname "$0")/../.." && pwd)/flow-lib.sh"
flow_start
phase first100 100 bench latency --count 50 --warmup 0 --pause-ms 0 --sizes 256KiB,1MiB
phase warmup 1400 bench latency --count 700 --warmup 0 --pause-ms 0 --sizes 256KiB,1MiB
phase seq256K 100 bench latency --count 100 --warmup 0 --pause-ms 10 --sizes 256KiB
phase seq1M 100 bench latency --count 100 --warmup 0 --pause-ms 10 --sizes 1MiB
phase put16a 400 bench throughput --clients 16 --sizes 1MiB --count 400 --ops PUT
phase put16b 400 bench throughput --clients 16 --sizes 1MiB --count 400 --ops PUT
flow_stop
