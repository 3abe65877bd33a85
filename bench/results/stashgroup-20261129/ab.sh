#!/usr/bin/env bash
# usage: ab.sh ORDER... (e.g. A1 B1 B2 A2): flow.sh on the built checkouts /tmp/ab-A (main before the change) and
# /tmp/ab-B (with a PUT_MANY's chunks queued to their committer in one step), each on a page cache filled first.
# Built with
#   git worktree add --detach /tmp/ab-X COMMIT && (cd /tmp/ab-X && ./mvnw -q -DskipTests package)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../flow-lib.sh"
ab_worktrees "$here/flow.sh" "$@"
