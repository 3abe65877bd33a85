#!/usr/bin/env bash
# usage: ROOT=checkout flow.sh NAME: threads waking threads. A fresh dev cluster, then the phases of
# ../steady-20261129/phases.sh with ROUNDS (3) rounds (the comparison's warm-up, 200 objects of 1 MiB, each round a
# 16-client load of 400 PUTs of 1 MiB and one of 400 GETs), then 100 sequential 256 KiB PUTs with 10 ms pauses; per
# load the context switches and CPU per request of every thread group of the four JVMs (switches.py), in place of
# flow-lib.sh's phase.
set -euo pipefail
root=${ROOT:?a built checkout}; name=$1; work=/tmp/wakeups; bucket=wakeups
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../flow-lib.sh"
source "$here/../steady-20261129/phases.sh"
jvms() { local k; for k in $(pgrep -P $cpid); do [ "$(cat /proc/$k/comm)" = java ] && echo $k; done; }
phase() {
  local label=$1 n=$2; shift 2
  python3 "$here/switches.py" snap $(jvms) > "$work/before"
  "$@" > /dev/null
  python3 "$here/switches.py" snap $(jvms) > "$work/after"
  echo "== $name $label"; python3 "$here/switches.py" diff "$work/before" "$work/after" "$n"
}
flow_start
ROUNDS=${ROUNDS:-3} run_phases
phase seq256k 100 bench latency --count 100 --warmup 0 --pause-ms 10 --sizes 256KiB
flow_stop
