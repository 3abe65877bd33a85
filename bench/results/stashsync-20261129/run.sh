#!/usr/bin/env bash
# usage: run.sh NAME: flow.sh on this checkout, after flow-lib.sh's ready_page_cache.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/../../.." && pwd)
source "$root/bench/flow-lib.sh"
fill=$(mktemp -u /tmp/stashsync-fill.XXXXXX)
trap 'rm -f "$fill"' EXIT
ready_page_cache "$fill"
echo "$1 $(date -u +%H:%M:%SZ) $(git -C "$root" log -1 --format=%h), load $(cut -d' ' -f1 /proc/loadavg), free $(memfree)"
ROOT=$root "$here/flow.sh" "$1"
