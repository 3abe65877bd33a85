#!/usr/bin/env bash
# usage: var.sh NAME "JVM OPTS"
set -euo pipefail
root=${ROOT:-/work/main}; name=$1; opts=${2:-}
rm -rf /tmp/jit/data; mkdir -p /tmp/jit/data
SHARDVAULT_JVM_OPTS="$opts" "$root/bin/shardvault" dev --data /tmp/jit/data > /tmp/jit/cluster.log 2>&1 &
cpid=$!
for _ in $(seq 1 240); do grep -q 'S3 endpoint ready at' /tmp/jit/cluster.log && break; sleep 0.5; done
endpoint=http://127.0.0.1:9000
bench() { SHARDVAULT_SECRET_KEY=shardvault-dev-secret "$root/bin/shardvault" bench "$@" --endpoint "$endpoint" --access-key shardvault-dev --bucket jit --no-progress; }
ticks() { local j=0 a=0; for p in $(pgrep -P $cpid); do [ "$(cat /proc/$p/comm)" = java ] || continue; s=$(sed 's/^.*) //' /proc/$p/stat | awk '{print $12+$13}'); a=$((a+s)); for task in /proc/$p/task/*; do case "$(cat $task/comm)" in C1*|C2*) s=$(sed 's/^.*) //' $task/stat | awk '{print $12+$13}'); j=$((j+s));; esac; done; done; echo "$a $j"; }
phase() { local label=$1 n=$2; shift 2; read a0 j0 < <(ticks); "$@" > /dev/null; read a1 j1 < <(ticks); echo "$name $label all=$(( (a1-a0)*10000/n ))us jit=$(( (j1-j0)*10000/n ))us per req"; }
phase warmup-put 1500 bench latency --count 750 --warmup 0 --pause-ms 0 --sizes 256KiB,1MiB
phase put16 400 bench throughput --clients 16 --sizes 1MiB --count 400 --ops PUT
phase put16b 400 bench throughput --clients 16 --sizes 1MiB --count 400 --ops PUT
phase upload 200 bench ttfb --sizes 1MiB --objects 200 --clients 16 --run-id jit --only upload
phase get-warm 400 bench ttfb --sizes 1MiB --objects 200 --clients 16 --run-id jit --only read --count 400 --warmup 0
phase get 400 bench ttfb --sizes 1MiB --objects 200 --clients 16 --run-id jit --only read --count 400 --warmup 0
phase get2 400 bench ttfb --sizes 1MiB --objects 200 --clients 16 --run-id jit --only read --count 400 --warmup 0
read a j < <(ticks); rss=0; for p in $(pgrep -P $cpid); do r=$(awk "/VmRSS/{print \$2}" /proc/$p/status); rss=$((rss+r)); done; echo "$name total all=${a}0ms jit=${j}0ms rss=$((rss/1024))MB"
kill -TERM $cpid; wait $cpid || true
