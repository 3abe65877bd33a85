#!/usr/bin/env bash
# usage: flow.sh NAME "JVM OPTS": a fresh dev cluster of ROOT, then PUT phases; per phase the CPU of the four
# JVMs (and their JIT threads) from /proc/PID/stat and of the whole machine from /proc/stat (kernel writeback
# threads and the bench client included), and the stash servers' own (stash=), per request; at the end
# the stash servers' data directory sizes.
set -euo pipefail
root=${ROOT:-/work/wt-syncfs}; name=$1; opts=${2:-}
if ss -ltn | grep -q '127.0.0.1]*:9000 \|:7400 '; then echo "$name: a cluster still listens; not measuring"; exit 1; fi
rm -rf /tmp/sfs/data; mkdir -p /tmp/sfs/data
SHARDVAULT_JVM_OPTS="$opts" "$root/bin/shardvault" dev --data /tmp/sfs/data ${DEV_ARGS:-} > /tmp/sfs/cluster-$name.log 2>&1 &
cpid=$!
for _ in $(seq 1 240); do grep -q 'S3 endpoint ready at' /tmp/sfs/cluster-$name.log && break; sleep 0.5; done
grep -q 'S3 endpoint ready at' /tmp/sfs/cluster-$name.log || { echo "$name: the cluster did not start"; kill -TERM $cpid; exit 1; }
endpoint=http://127.0.0.1:9000
if [ -f /tmp/sfs/data/tls/ca.crt ]; then
  endpoint=https://127.0.0.1:9000
  rm -f /tmp/sfs/trust.p12
  keytool -importcert -noprompt -alias shardvault-ca -file /tmp/sfs/data/tls/ca.crt -keystore /tmp/sfs/trust.p12 -storetype PKCS12 -storepass changeit >/dev/null 2>&1
  export JAVA_TOOL_OPTIONS="-Djavax.net.ssl.trustStore=/tmp/sfs/trust.p12 -Djavax.net.ssl.trustStorePassword=changeit"
fi
bench() { SHARDVAULT_SECRET_KEY=shardvault-dev-secret "$root/bin/shardvault" bench "$@" 2>/dev/null --endpoint "$endpoint" --access-key shardvault-dev --bucket sfs --no-progress; }
ticks() { local j=0 a=0 st=0; for p in $(pgrep -P $cpid); do [ "$(cat /proc/$p/comm)" = java ] || continue; s=$(sed 's/^.*) //' /proc/$p/stat | awk '{print $12+$13}'); a=$((a+s)); if tr '\0' ' ' < /proc/$p/cmdline | grep -q shardvault-stash; then st=$((st+s)); fi; for task in /proc/$p/task/*; do case "$(cat $task/comm)" in C1*|C2*) s=$(sed 's/^.*) //' $task/stat | awk '{print $12+$13}'); j=$((j+s));; esac; done; done; m=$(awk '/^cpu /{print $2+$3+$4+$7+$8}' /proc/stat); echo "$a $j $m $st"; }
phase() { local label=$1 n=$2; shift 2; read a0 j0 m0 s0 < <(ticks); out=$("$@"); read a1 j1 m1 s1 < <(ticks); p50=$(echo "$out" | awk '$1=="run" && $4 ~ /KiB|MiB/ {print "p50=" $8 " obj/s=" $11}' | tr '\n' ' '); echo "$name $label jvms=$(( (a1-a0)*10000/n ))us jit=$(( (j1-j0)*10000/n ))us machine=$(( (m1-m0)*10000/n ))us stash=$(( (s1-s0)*10000/n ))us p50=[$p50]"; }
phase warmup 1500 bench latency --count 750 --warmup 0 --pause-ms 0 --sizes 256KiB,1MiB
phase seq256 200 bench latency --count 200 --warmup 0 --pause-ms 10 --sizes 256KiB
phase put16 400 bench throughput --clients 16 --sizes 1MiB --count 400 --ops PUT
phase put16b 400 bench throughput --clients 16 --sizes 1MiB --count 400 --ops PUT
phase put16c 400 bench throughput --clients 16 --sizes 1MiB --count 400 --ops PUT
kids=$(pgrep -P $cpid | tr '\n' ' ')
kill -TERM $cpid; wait $cpid || true
for _ in $(seq 1 120); do alive=0; for k in $kids; do kill -0 $k 2>/dev/null && alive=1; done; [ $alive = 0 ] && break; [ $_ = 20 ] && kill -TERM $kids 2>/dev/null; sleep 0.5; done
for k in $kids; do kill -0 $k 2>/dev/null && { echo "$name: service $k still alive after stop, killed"; kill -KILL $k; }; done
grep -c 'fdatasync per file' /tmp/sfs/data/logs/pods.log | sed "s/^/$name pods.log lines 'fdatasync per file': /" || true
du -sk /tmp/sfs/data/stash-* 2>/dev/null | sed "s/^/$name stash dir KiB after stop: /" || true
