#!/usr/bin/env bash
# usage: ab.sh ORDER... (e.g. A1 B1 B2 A2): the GET flow of ../getinline-20261128/flow.sh on the built checkouts
# /tmp/ab-A (main with spare segments, 5e0e8fd) and /tmp/ab-B (the same with B-chunk-arrivals-where-they-complete.patch:
# a stripe read's chunk arrivals handled on the thread that completes them, only a decode on the data path's workers;
# not merged, docs/PERFORMANCE.md), each on a page cache filled first and once
# the load is below 1 (flow-lib.sh's ab_worktrees). Table: bench/ab-summary.py jvms,coordinator,pod,ttfb-p50,obj/s
# FILE... Nothing else may run beside it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../flow-lib.sh"
ab_worktrees "$here/../getinline-20261128/flow.sh" "$@"
