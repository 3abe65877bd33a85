#!/usr/bin/env bash
# usage: ab.sh ORDER...   (e.g. A1 B1 C1 C2 B2 A2): the PUT flow (../put-20261128/flow.sh) on the built checkout
# /tmp/ab-X for run name Xn, each on a page cache filled with clean pages first (the free memory less 3 GiB read
# in from a sparse file, so that new page-cache pages come from reclaim, as on a server that has run for a day).
# The checkouts of 2026-11-28: A = 28d3b03; B, C, D = 28d3b03 with B-stash-on-event-loop.patch,
# C-shared-event-loops.patch (B's and the pod's WRITE and READ), D-own-event-loop.patch; each built with
#   git worktree add --detach /tmp/ab-X 28d3b03 && git -C /tmp/ab-X apply PATCH && (cd /tmp/ab-X && ./mvnw -q -DskipTests package)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../flow-lib.sh"
ab_worktrees "$here/../put-20261128/flow.sh" "$@"
