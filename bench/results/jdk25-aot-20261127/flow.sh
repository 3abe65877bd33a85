#!/usr/bin/env bash
# usage: flow.sh NAME: a fresh dev cluster of ROOT on the JVM of JAVA_HOME (flags for the coordinator in COORD_OPTS),
# then PUT phases and GET phases; per phase the CPU of the four JVMs (and their JIT threads) from /proc/PID/stat and
# of the whole machine from /proc/stat (kernel threads and the bench client included), per request.
# The PUT phases are ../syncfs-tls-20261126/flow.sh's; the GET phases read 200 objects of 1 MiB from 16 clients.
set -euo pipefail
root=${ROOT:?a built checkout}; name=$1
if ss -ltn | grep -q '127.0.0.1]*:9000 \|:7400 '; then echo "$name: a cluster still listens; not measuring"; exit 1; fi
rm -rf /tmp/aotab/data; mkdir -p /tmp/aotab/data
SHARDVAULT_COORDINATOR_JVM_OPTS="${COORD_OPTS:-}" "$root/bin/shardvault" dev --data /tmp/aotab/data > /tmp/aotab/cluster-$name.log 2>&1 &
cpid=$!
for _ in $(seq 1 240); do grep -q 'S3 endpoint ready at' /tmp/aotab/cluster-$name.log && break; sleep 0.5; done
grep -q 'S3 endpoint ready at' /tmp/aotab/cluster-$name.log || { echo "$name: the cluster did not start"; kill -TERM $cpid; exit 1; }
endpoint=http://127.0.0.1:9000
# The bench client runs on the machine's default JVM whatever the cluster's.
bench() { JAVA_HOME= SHARDVAULT_SECRET_KEY=shardvault-dev-secret "$root/bin/shardvault" bench "$@" 2>/dev/null --endpoint "$endpoint" --access-key shardvault-dev --bucket aot --no-progress; }
ticks() { local j=0 a=0 c=0; for p in $(pgrep -P $cpid); do [ "$(cat /proc/$p/comm)" = java ] || continue; s=$(sed 's/^.*) //' /proc/$p/stat | awk '{print $12+$13}'); a=$((a+s)); if tr '\0' ' ' < /proc/$p/cmdline | grep -q shardvault-coordinator; then c=$((c+s)); fi; for task in /proc/$p/task/*; do case "$(cat $task/comm)" in C1*|C2*) s=$(sed 's/^.*) //' $task/stat | awk '{print $12+$13}'); j=$((j+s));; esac; done; done; m=$(awk '/^cpu /{print $2+$3+$4+$7+$8}' /proc/stat); echo "$a $j $m $c"; }
phase() { local label=$1 n=$2; shift 2; read a0 j0 m0 c0 < <(ticks); out=$("$@"); read a1 j1 m1 c1 < <(ticks); p50=$(echo "$out" | awk '$1=="run" && $4 ~ /KiB|MiB/ {print $3 " p50=" $8 " obj/s=" $12}' | tr '\n' ' '); echo "$name $label jvms=$(( (a1-a0)*10000/n ))us jit=$(( (j1-j0)*10000/n ))us coordinator=$(( (c1-c0)*10000/n ))us machine=$(( (m1-m0)*10000/n ))us [$p50]"; }
start=$(date +%s.%N)
phase first100 100 bench latency --count 50 --warmup 0 --pause-ms 0 --sizes 256KiB,1MiB
phase warmup 1400 bench latency --count 700 --warmup 0 --pause-ms 0 --sizes 256KiB,1MiB
phase seq256 200 bench latency --count 200 --warmup 0 --pause-ms 10 --sizes 256KiB
phase put16 400 bench throughput --clients 16 --sizes 1MiB --count 400 --ops PUT
phase put16b 400 bench throughput --clients 16 --sizes 1MiB --count 400 --ops PUT
phase upload 200 bench ttfb --sizes 1MiB --objects 200 --clients 16 --run-id aot --only upload
phase get16 400 bench ttfb --sizes 1MiB --objects 200 --clients 16 --run-id aot --only read --count 400 --warmup 0
phase get16b 400 bench ttfb --sizes 1MiB --objects 200 --clients 16 --run-id aot --only read --count 400 --warmup 0
echo "$name flow took $(awk -v s=$start -v e=$(date +%s.%N) 'BEGIN{printf "%.0f", e-s}') s"
kids=$(pgrep -P $cpid | tr '\n' ' ')
kill -TERM $cpid; wait $cpid || true
for _ in $(seq 1 240); do alive=0; for k in $kids; do kill -0 $k 2>/dev/null && alive=1; done; [ $alive = 0 ] && break; sleep 0.5; done
for k in $kids; do kill -0 $k 2>/dev/null && { echo "$name: service $k still alive after stop, killed"; kill -KILL $k; }; done; true
