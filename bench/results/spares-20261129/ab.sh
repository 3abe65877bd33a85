#!/usr/bin/env bash
# usage: ab.sh A1 B1 ...: the PUT flow (../put-20261128/flow.sh) with the stash meters and chunk log files per phase
# (spare-files.sh) on /tmp/ab-A (main before spare segments) and /tmp/ab-B (with them), built, each run on a page
# cache filled first (flow-lib.sh's ab_worktrees). WARMUP passes on to the flow (1,500 warm-up PUTs of each size; 3,000
# put every partition's active segment into a spare's file before the sequential phases). Nothing else may run beside it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../../flow-lib.sh"
export FLOW_HOOKS="$here/spare-files.sh"
ab_worktrees "$here/../put-20261128/flow.sh" "$@"
