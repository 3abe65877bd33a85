#!/usr/bin/env bash
# usage: ab.sh ORDER... (e.g. M1 N1 N2 M2): the PUT flow (../put-20261128/flow.sh) on one build (/tmp/ab-M and /tmp/ab-N
# both link to a worktree of 8583427) with the page cache filled to leave 3 GiB free (M, flow-lib.sh's default until
# now, and bench/run-peer-comparison.sh's) or 0.5 GiB (N). A server that has run for a day has no free memory to
# speak of; with 3 GiB free, the first ~3 GiB a cluster writes go to pages this VM must first take back from its host.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../flow-lib.sh"
for name in "$@"; do
  case "$name" in M*) margin=3072 ;; N*) margin=512 ;; *) echo "run names start with M or N" >&2; exit 2 ;; esac
  FILL_MARGIN_MIB=$margin ab_worktrees "$here/../put-20261128/flow.sh" "$name"
done
