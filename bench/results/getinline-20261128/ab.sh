#!/usr/bin/env bash
# usage: ab.sh ORDER... (e.g. A1 R1 R2 A2): the GET flow (flow.sh) on the built checkout /tmp/ab-X for run name Xn,
# each on a page cache filled with clean pages first (flow-lib.sh's fill_page_cache). The checkouts of 2026-11-28:
# A = main before the change (a06a289); R = A with R-pod-reads-on-event-loop.patch (the pod's READ handled on the
# event loop that decoded it, a prototype to measure first: no guard against a read that waits for the disk); C = the
# change as committed (427d5bf: only bytes the page cache holds, read with RWF_NOWAIT). Each built with
#   git worktree add --detach /tmp/ab-X COMMIT [&& git -C /tmp/ab-X apply PATCH] && (cd /tmp/ab-X && ./mvnw -q -DskipTests package)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../flow-lib.sh"
ab_worktrees "$here/flow.sh" "$@"
