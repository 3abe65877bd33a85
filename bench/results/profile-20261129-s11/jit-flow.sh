#!/usr/bin/env bash
# The coordinator's JIT compilations in a third identical 16-client PUT load (ad hoc, eleventh session): a fresh dev
# cluster, 1,500 sequential PUTs and two loads, then at the third load MODE=jfr starts a JFR recording of jit.jfc,
# MODE=ap attaches async-profiler as bench/profile-cluster.sh does, MODE=none nothing. With
# SHARDVAULT_JVM_OPTS="-XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation -XX:LogFile=$OUT/hs-%p.log" the
# coordinator's log (the largest) goes to jit-count.py: compilations per 5 s of its life, by tier.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd); out=${OUT:?an output directory}; work=$(mktemp -d)
endpoint="http://127.0.0.1:9000" access=shardvault-dev secret=shardvault-dev-secret
SHARDVAULT_ACCESS_KEY="$access" SHARDVAULT_SECRET_KEY="$secret" "$root/bin/shardvault" dev --data "$work/data" >"$out/cluster.log" 2>&1 &
cp=$!
trap 'kill -TERM $cp; wait $cp || true; rm -rf $work' EXIT
for _ in $(seq 1 240); do grep -q 'S3 endpoint ready at' "$out/cluster.log" && break; sleep 0.5; done
bench() { SHARDVAULT_SECRET_KEY="$secret" "$root/bin/shardvault" bench "$@" --endpoint "$endpoint" --access-key "$access" --bucket profile --no-progress; }
load() { bench throughput --clients 16 --sizes 1MiB --count 400 --ops PUT; }
bench latency --count 750 --warmup 0 --pause-ms 0 --sizes 256KiB,1MiB >/dev/null
load >/dev/null; load >/dev/null
coord=""
for p in $(pgrep -P $cp); do grep -q coordinator /proc/$p/cmdline && coord=$p; done
date +%s.%N > $out/load3-start; echo $(( $(date +%s) - $(date -d "$(ps -o lstart= -p $coord)" +%s) )) > $out/load3-at
case "${MODE:-jfr}" in
  jfr) jcmd $coord JFR.start name=jit settings=$(cd "$(dirname "$0")" && pwd)/jit.jfc filename=$out/coord.jfr >/dev/null ;;
  ap) unzip -q -o -j ~/.m2/repository/tools/profiler/async-profiler/4.2/async-profiler-4.2.jar linux-x64/libasyncProfiler.so -d $work; jcmd $coord JVMTI.agent_load $work/libasyncProfiler.so '"start,event=cpu,interval=1000000,threads"' >/dev/null ;;
  none) ;;
esac
t0=$(awk '{print $14+$15}' /proc/$coord/stat)
load | tail -1
${EXTRA_LOADS:+eval "$EXTRA_LOADS"}
[ "${MODE:-jfr}" = jfr ] && jcmd $coord JFR.dump name=jit filename=$out/coord.jfr >/dev/null || true
t1=$(awk '{print $14+$15}' /proc/$coord/stat)
echo "coordinator ticks $((t1-t0))"
for t in /proc/$coord/task/*; do n=$(cat $t/comm); case "$n" in C*Compiler*) awk -v n="$n" '{print n, $14+$15}' $t/stat;; esac; done
date +%s.%N > $out/load3-end; grep -o "[0-9.]*" /proc/uptime | head -1 >/dev/null; jcmd $coord Compiler.codecache | head -8 > $out/codecache.txt
[ "${MODE:-jfr}" = jfr ] && python3 - "$out" <<'PY'
import re,sys,subprocess,collections
out=sys.argv[1]
txt=subprocess.run(['jfr','print','--events','jdk.Compilation',out+'/coord.jfr'],capture_output=True,text=True).stdout
seen={}
for e in txt.split('jdk.Compilation {')[1:]:
    d=dict(re.findall(r'^\s*(\w+) = (.*)$',e,re.M)); seen[d['compileId']]=d
lv=collections.Counter(d['compileLevel'] for d in seen.values())
print('compilations in the load:',len(seen),dict(lv),'distinct methods',len({d['method'] for d in seen.values()}))
PY
cat $out/codecache.txt
