#!/usr/bin/env bash
# usage: [CP_MB=400] [DOWNS=6] cpdown.sh shardvault|minio (thirteenth session): a fresh system (bench/systems-lib.sh),
# one `aws s3 cp` of a CP_MB MB file up, then DOWNS copies down; per copy the MB/s, the server's CPU per MB (/proc),
# the AWS CLI's own CPU per MB (bash's time: user + system, user alone in brackets), the cores each used, and
# before it the free memory and /proc/vmstat's reclaim counters. The results of 2026-11-29 are in results.txt.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd); source "$root/bench/systems-lib.sh"
sys=$1; mb=${CP_MB:-400}; downs=${DOWNS:-6}; work=$(mktemp -d /tmp/cpdown.XXXXXX)
aws=${AWS_CLI:-$HOME/.cache/shardvault/interop/awscli/bin/aws}
trap '[ -z "${sys_pid:-}" ] || { kill -TERM $sys_pid; wait $sys_pid || true; }; rm -rf "$work"' EXIT
head -c $((mb * 1000000)) /dev/urandom > "$work/file"
start_system "$sys" "$work/data" "$work/log"
# The server processes: MinIO itself, or the dev cluster's JVMs.
pids() { if [ "$sys" = minio ]; then echo "$sys_pid"; else pgrep -P "$sys_pid" | tr '\n' ' '; fi; }
ticks() { local s=0 p; for p in $(pids); do s=$((s + $(sed 's/^.*) //' /proc/$p/stat | awk '{print $12+$13}'))); done; echo $s; }
# The secret reaches the CLI through its environment, not its command line.
a() { AWS_ACCESS_KEY_ID=$access AWS_SECRET_ACCESS_KEY=$secret AWS_DEFAULT_REGION=us-east-1 AWS_CONFIG_FILE=/dev/null \
  AWS_SHARED_CREDENTIALS_FILE=/dev/null "$aws" --endpoint-url "$endpoint" "$@"; }
vm() { awk '$1 ~ /^(pgsteal_kswapd|pgsteal_direct|allocstall_normal|allocstall_movable|pgscan_direct|pgfault|pgmajfault|compact_stall|thp_fault_alloc)$/ {printf "%s=%s ", $1, $2}' /proc/vmstat; }
run() {
  local label=$1 t0 t1 w0 w1 TIMEFORMAT="%U %S"; shift
  echo "free $(awk '/^MemFree:/ {print int($2/1024)}' /proc/meminfo) MB; $(vm)"
  t0=$(ticks); w0=$(date +%s.%N)
  { time a s3 "$@" --only-show-errors --no-progress 2>&3; } 3>&2 2>"$work/time"
  w1=$(date +%s.%N); t1=$(ticks)
  awk -v l="$label" -v s="$sys" -v mb="$mb" -v w0="$w0" -v w1="$w1" -v t=$((t1 - t0)) '{ w = w1 - w0; c = $1 + $2;
    printf "%s %s %.1f MB/s server %.2f ms/MB client %.2f ms/MB (user %.2f) server cores %.2f client cores %.2f\n",
      s, l, mb / w, t * 10 / mb, c * 1000 / mb, $1 * 1000 / mb, t / 100 / w, c / w }' "$work/time"
}
a s3 mb s3://cpx > /dev/null
run up cp "$work/file" s3://cpx/f
for _ in $(seq 1 "$downs"); do
  run down cp s3://cpx/f "$work/down"
  cmp -s "$work/file" "$work/down" || { echo "cpdown: the copy down differs from the file"; exit 1; }
  rm -f "$work/down"
done
