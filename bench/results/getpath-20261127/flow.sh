#!/usr/bin/env bash
# usage: ROOT=checkout flow.sh NAME: a fresh dev cluster of ROOT, then PUT and GET phases; per phase the CPU of the
# four JVMs and of the coordinator from /proc/PID/stat, and of the whole machine from /proc/stat (the bench client
# and the kernel included), per request, with the coordinator's stripe-read decodes and hedges in the phase.
# GET phases: a hot set (200 objects of 1 MiB read twice each per load), read-once (400 objects each read once),
# and large objects (8 of 32 MiB, each read 4 times, 4 clients); the uploads are phases too, with the shards their
# writes recorded missing (a file written degraded is decoded on every read until repair rebuilds it).
set -euo pipefail
root=${ROOT:?a built checkout}; name=$1; work=/tmp/getpath; bucket=getpath
source "$(cd "$(dirname "$0")/../.." && pwd)/flow-lib.sh"
flow_start
bench latency --count 300 --warmup 0 --pause-ms 0 --sizes 256KiB,1MiB > /dev/null
phase put16 400 bench throughput --clients 16 --sizes 1MiB --count 400 --ops PUT
phase upload16hot 200 bench ttfb --sizes 1MiB --objects 200 --clients 16 --run-id hot --only upload
phase get16hot 400 bench ttfb --sizes 1MiB --objects 200 --clients 16 --run-id hot --only read --count 400 --warmup 0
phase get16hotb 400 bench ttfb --sizes 1MiB --objects 200 --clients 16 --run-id hot --only read --count 400 --warmup 0
phase get4hot 400 bench ttfb --sizes 1MiB --objects 200 --clients 4 --run-id hot --only read --count 400 --warmup 0
phase upload16once 400 bench ttfb --sizes 1MiB --objects 400 --clients 16 --run-id once --only upload
phase get16once 400 bench ttfb --sizes 1MiB --objects 400 --clients 16 --run-id once --only read --count 400 --warmup 0
phase upload4big32M 8 bench ttfb --sizes 32MiB --objects 8 --clients 4 --run-id big --only upload
phase get4big32M 32 bench ttfb --sizes 32MiB --objects 8 --clients 4 --run-id big --only read --count 32 --warmup 0
flow_stop
