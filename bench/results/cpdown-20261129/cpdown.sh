#!/usr/bin/env bash
# usage: cpdown.sh shardvault|minio: aws s3 cp of a 400 MB file up once, down N times; per copy: wall, server CPU, client CPU.
set -euo pipefail
sys=$1; root=/work/main; work=/tmp/cpx/$sys; rm -rf "$work"; mkdir -p "$work"
aws=~/.cache/shardvault/interop/awscli/bin/aws
[ -f /tmp/cpx/file ] || head -c 400000000 /dev/urandom > /tmp/cpx/file
if [ "$sys" = minio ]; then
  MINIO_ROOT_USER=peeradmin MINIO_ROOT_PASSWORD=peeradmin-secret-key "$root/../shared/peers/minio.sh" "$work/data" 9100 > "$work/log" 2>&1 &
  spid=$!; ep=http://127.0.0.1:9100; ak=peeradmin; sk=peeradmin-secret-key
  for _ in $(seq 1 240); do curl -sf http://127.0.0.1:9100/minio/health/cluster > /dev/null && break; sleep 0.5; done
  pids() { pgrep -f 'minio server' | tr '\n' ' '; }
else
  "$root/bin/shardvault" dev --data "$work/data" > "$work/log" 2>&1 &
  spid=$!; ep=http://127.0.0.1:9000; ak=shardvault-dev; sk=shardvault-dev-secret
  for _ in $(seq 1 240); do grep -q 'S3 endpoint ready at' "$work/log" && break; sleep 0.5; done
  pids() { pgrep -P $spid | tr '\n' ' '; }
fi
trap 'kill -TERM $spid; wait $spid || true' EXIT
a() { AWS_ACCESS_KEY_ID=$ak AWS_SECRET_ACCESS_KEY=$sk AWS_DEFAULT_REGION=us-east-1 AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null "$aws" --endpoint-url $ep "$@"; }
ticks() { local s=0 p; for p in $(pids); do s=$((s + $(sed 's/^.*) //' /proc/$p/stat | awk '{print $12+$13}'))); done; echo $s; }
a s3 mb s3://cpx > /dev/null
vm() { awk '$1 ~ /^(pgsteal_kswapd|pgsteal_direct|allocstall_normal|allocstall_movable|pgscan_direct|pgfault|pgmajfault|compact_stall|thp_fault_alloc)$/ {printf "%s=%s ", $1, $2}' /proc/vmstat; }
run() { local label=$1 t0 w0 w1 t1 c; shift; echo "free $(awk '/^MemFree:/ {print int($2/1024)}' /proc/meminfo) MB; $(vm)"; t0=$(ticks); w0=$(date +%s.%N)
  local TIMEFORMAT="%U %S"; { time a s3 "$@" --only-show-errors --no-progress ; } 2> $work/time
  w1=$(date +%s.%N); t1=$(ticks); c=$(awk '{print $1+$2}' $work/time); cu=$(awk '{print $1}' $work/time)
  awk -v l=$label -v s=$sys -v w0=$w0 -v w1=$w1 -v t=$((t1-t0)) -v c=$c -v cu=$cu 'BEGIN{w=w1-w0; printf "%s %s %.1f MB/s server %.2f ms/MB client %.2f ms/MB (user %.2f) server cores %.2f client cores %.2f\n", s, l, 400/w, t*10/400, c*1000/400, cu*1000/400, t/100/w, c/w}'; }
run up cp /tmp/cpx/file s3://cpx/f
for i in 1 2 3 4 5 6; do run down cp s3://cpx/f $work/down; cmp -s /tmp/cpx/file $work/down || echo BAD; rm -f $work/down; done
