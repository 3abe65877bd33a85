#!/usr/bin/env bash
# usage: run.sh NAME...: probe.sh once per name, each after ready_page_cache (flow-lib.sh's ab_each). A name
# hdd-stash* runs the dev cluster with --simulated-hdd (the stash's own case of run-stash-comparison.sh),
# hdd-nostash* with --simulated-hdd --no-stash, disk-stash* as shipped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/../../.." && pwd)
source "$root/bench/flow-lib.sh"
probe_run() {
  local opts
  case "$2" in
    hdd-stash*) opts="--simulated-hdd" ;;
    hdd-nostash*) opts="--simulated-hdd --no-stash" ;;
    disk-stash*) opts="" ;;
    *) echo "run.sh: no options for $2" >&2; exit 2 ;;
  esac
  echo "$2 $(date -u +%H:%M:%SZ) $(git -C "$root" log -1 --format=%h) DEV_OPTS='$opts', $(ab_conditions)"
  DEV_OPTS="$opts" ROOT=$root "$1" "$2"
}
ab_each "$here/probe.sh" probe_run "$@"
