# Sourced by ../put-20261128/flow.sh through FLOW_HOOKS (see flow.sh here): wraps flow-lib.sh's phase so that each
# phase also prints what the stash servers did: syncs (group commits) per PUT and their mean time, and the mean time
# of a PUT_MANY, from their meters (shardvault_stash_commit_sync_seconds,
# shardvault_rpc_server_requests_seconds{op="stash.putMany"}).
# stash_meters: syncs, PUT_MANY count and seconds, and sync seconds, summed over both stash servers.
stash_meters() {
  for port in 9470 9471; do curl -s "http://127.0.0.1:$port/metrics"; done | awk '
    $1 ~ /^shardvault_stash_commit_sync_seconds_count/ { s += $2 }
    $1 ~ /^shardvault_stash_commit_sync_seconds_sum/ { w += $2 }
    $1 ~ /^shardvault_rpc_server_requests_seconds_count[{].*op="stash.putMany"/ { n += $2 }
    $1 ~ /^shardvault_rpc_server_requests_seconds_sum[{].*op="stash.putMany"/ { t += $2 }
    END { printf "%d %d %.6f %.6f\n", s, n, t, w }'
}
eval "flowlib_$(declare -f phase)"
phase() {
  local label=$1 n=$2 y0 n0 t0 w0 y1 n1 t1 w1
  read -r y0 n0 t0 w0 < <(stash_meters)
  flowlib_phase "$@"
  read -r y1 n1 t1 w1 < <(stash_meters)
  awk -v name="$name" -v label="$label" -v n="$n" -v s="$((y1 - y0))" -v c="$((n1 - n0))" -v t0="$t0" -v t1="$t1" \
    -v w0="$w0" -v w1="$w1" 'BEGIN { printf "%s %s stash: syncs per PUT %.2f, sync mean %.2f ms, PUT_MANY %d, mean %.2f ms\n",
      name, label, s / n, s ? (w1 - w0) * 1000 / s : 0, c, c ? (t1 - t0) * 1000 / c : 0 }'
}
