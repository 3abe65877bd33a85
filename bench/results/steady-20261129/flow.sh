#!/usr/bin/env bash
# usage: ROOT=checkout flow.sh NAME: how the CPU per request of a fresh dev cluster of ROOT settles as it warms up,
# over the phases of phases.sh. Per phase the CPU of the four JVMs per request from /proc, with the GC and JIT
# compiler threads' part (bench/flow-lib.sh's phase).
set -euo pipefail
root=${ROOT:?a built checkout}; name=$1; work=/tmp/steady; bucket=steady
source "$(cd "$(dirname "$0")/../.." && pwd)/flow-lib.sh"
source "$(dirname "$0")/phases.sh"
flow_start
run_phases
flow_stop
