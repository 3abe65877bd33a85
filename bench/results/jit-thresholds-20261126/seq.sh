#!/usr/bin/env bash
# usage: seq.sh NAME "JVM OPTS": 1,500 warm-up PUTs, then 100 sequential PUTs per size with 10 ms pauses
set -uo pipefail
root=/work/main; name=$1; opts=${2:-}
rm -rf /tmp/jit/data; mkdir -p /tmp/jit/data
SHARDVAULT_JVM_OPTS="$opts" "$root/bin/shardvault" dev --data /tmp/jit/data > /tmp/jit/cluster.log 2>&1 &
cpid=$!
trap "kill -TERM $cpid 2>/dev/null; wait $cpid" EXIT
for _ in $(seq 1 240); do grep -q 'S3 endpoint ready at' /tmp/jit/cluster.log && break; sleep 0.5; done
bench() { SHARDVAULT_SECRET_KEY=shardvault-dev-secret "$root/bin/shardvault" bench "$@" --endpoint http://127.0.0.1:9000 --access-key shardvault-dev --bucket seq --no-progress; }
ticks() { local j=0 a=0; for p in $(pgrep -P $cpid); do [ "$(cat /proc/$p/comm)" = java ] || continue; s=$(sed 's/^.*) //' /proc/$p/stat | awk '{print $12+$13}'); a=$((a+s)); for task in /proc/$p/task/*; do case "$(cat $task/comm)" in C1*|C2*) s=$(sed 's/^.*) //' $task/stat | awk '{print $12+$13}'); j=$((j+s));; esac; done; done; echo "$a $j"; }
bench latency --count 750 --warmup 0 --pause-ms 0 --sizes 256KiB,1MiB > /dev/null
for size in 256KiB 1MiB; do
  read a0 j0 < <(ticks)
  r=$(bench latency --count 100 --warmup 0 --pause-ms 10 --sizes $size | tail -1)
  read a1 j1 < <(ticks)
  echo "$name $size p50=$(echo "$r" | awk '{print $8}')ms cpu=$(( (a1-a0)*100 ))us jit=$(( (j1-j0)*100 ))us per PUT"
done
