# Sourced by ../put-20261128/flow.sh through FLOW_HOOKS (ab.sh here): the stash meters of
# ../stashgroup-20261129/stash-meters.sh, and before each phase the chunk log files of both stash servers: segments,
# spares, and the size of each chunk directory's newest (active) segment file, which is a segment's full size from
# its start when it reuses a spare's file, so that a run says whether its phases wrote into reused files. $work is the
# flow's.
source "$(dirname "${BASH_SOURCE[0]}")/../stashgroup-20261129/stash-meters.sh"
eval "stashmeters_$(declare -f phase)"
phase() {
  local segs spares active="" dir
  segs=$(find $work/data -name 'seg-*.log' | wc -l)
  spares=$(find $work/data -name 'spare-*.log' | wc -l)
  for dir in $(find $work/data -type d -name chunks | sort); do
    active+=" $(find "$dir" -name 'seg-*.log' | sort | tail -1 | xargs stat -c %s | awk '{printf "%.0f", $1 / 1048576}')"
  done
  echo "$name $1 chunk log before it: $segs segments, $spares spares, active segment files (MiB):$active"
  stashmeters_phase "$@"
}
