#!/usr/bin/env bash
# usage: ab.sh ORDER... (e.g. A1 B1 B2 A2): flow.sh on the built checkouts /tmp/ab-A (main: every JVM at
# -XX:CompileThresholdScaling=2.0) and /tmp/ab-B (the same at 1.0, the JVM's default), each on a page cache filled
# first. Built with
#   git worktree add --detach /tmp/ab-X COMMIT && (cd /tmp/ab-X && ./mvnw -q -DskipTests package)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../flow-lib.sh"
ab_worktrees "$here/flow.sh" "$@"
