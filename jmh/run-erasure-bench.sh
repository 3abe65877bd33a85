#!/usr/bin/env bash
# Erasure-coding throughput: the JMH benchmark of both engines (ErasureCodecBenchmark) and the plain-C
# Jerasure program (jmh/native/jerasure_bench.c), same layouts, sizes and working set, one thread each.
# Prints GB/s of data (k x chunkLength bytes per op) and the ratios native/C and java/C, twice:
#   - per wall-clock second (JMH's own score; the C program's elapsed time), and
#   - per CPU second of the benchmark thread (steadier on a machine shared with other work, since
#     time slices taken by other processes do not count).
# Every figure is the best 1-second window: the C program's best of 5 trials, JMH's best measurement
# iteration. The C program runs before and after JMH; the better of its two figures is the floor (the
# more conservative ratio).
#
# usage: jmh/run-erasure-bench.sh [--no-build] [extra JMH args, e.g. -i 8 or -p layout=16+4]
# MVN_ARGS adds Maven options to the build (e.g. MVN_ARGS=-o).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out="$root/jmh/target/erasure-bench"
mkdir -p "$out"

build=true
if [ "${1:-}" = "--no-build" ]; then build=false; shift; fi

if $build; then
  # shellcheck disable=SC2086
  ./mvnw -B -q -pl jmh -am package -DskipTests ${MVN_ARGS:-}
fi
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I/usr/include/jerasure \
    -o "$out/jerasure_bench" jmh/native/jerasure_bench.c -lJerasure -lgf_complete

echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')" \
     "(family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')," \
     "model $(grep -m1 '^model\s' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')), $(nproc) cores visible," \
     "load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "java: $(java -version 2>&1 | head -1)"

# JMH serialises benchmark runs on a machine through a POSIX lock on /tmp/jmh.lock; the C program
# takes the same lock so that it never runs alongside another JMH benchmark either.
with_jmh_lock() {
  python3 -c 'import fcntl, subprocess, sys
f = open("/tmp/jmh.lock", "a")
fcntl.lockf(f, fcntl.LOCK_EX)
sys.exit(subprocess.call(sys.argv[1:]))' "$@"
}

rm -f "$out/jmh-cpu.txt" "$out/jmh.json" "$out/jmh.log"
with_jmh_lock "$out/jerasure_bench" 1 5 | tee "$out/c-before.txt"
for attempt in $(seq 1 120); do
  java -jar jmh/target/benchmarks.jar 'io.shardvault.common.erasure.ErasureCodecBenchmark' \
      -jvmArgsAppend "-Xms1g -Xmx1g -Derasure.bench.cpuOut=$out/jmh-cpu.txt" \
      -rf json -rff "$out/jmh.json" "$@" > "$out/jmh.log" 2>&1 || true
  grep -q 'Unable to acquire the JMH lock' "$out/jmh.log" || break
  [ "$attempt" = 1 ] && echo "waiting for another JMH run to finish (/tmp/jmh.lock)"
  sleep 10
done
grep -E '^(Benchmark|ErasureCodecBenchmark)' "$out/jmh.log" || { tail -30 "$out/jmh.log"; exit 1; }
with_jmh_lock "$out/jerasure_bench" 1 5 | tee "$out/c-after.txt"

python3 - "$out" <<'PY'
import json, sys, os
out = sys.argv[1]
c_wall, c_cpu = {}, {}
for name in ("c-before.txt", "c-after.txt"):
    for line in open(os.path.join(out, name)):
        f = line.split()
        if f and f[0] == "c":
            key = (f[1], f[2], int(f[3]))
            c_wall[key] = max(c_wall.get(key, 0.0), float(f[4]))
            c_cpu[key] = max(c_cpu.get(key, 0.0), float(f[5]))
chunk = lambda k, s: ((s + k - 1) // k + 15) // 16 * 16
j_wall, j_cpu = {}, {}
for r in json.load(open(os.path.join(out, "jmh.json"))):
    op = r["benchmark"].rsplit(".", 1)[1]
    p = r["params"]
    k = int(p["layout"].split("+")[0])
    s = int(p["stripeBytes"])
    best = max(v for fork in r["primaryMetric"]["rawData"] for v in fork)
    j_wall[(op, p["layout"], s, p["engine"])] = best * k * chunk(k, s) / 1e9
cpu_file = os.path.join(out, "jmh-cpu.txt")
if os.path.exists(cpu_file):
    for line in open(cpu_file):
        f = line.split()
        key = (f[1], f[2], int(f[3]), f[4])
        j_cpu[key] = max(j_cpu.get(key, 0.0), float(f[5]))

def table(title, c, j):
    print()
    print(title)
    print("%-7s %-5s %-8s %9s %9s %9s %8s %8s" % ("op", "k+m", "stripe", "C GB/s", "jni GB/s", "java GB/s", "jni/C", "java/C"))
    for (op, layout, s) in sorted(c, key=lambda t: (t[0] != "encode", t[1], -t[2])):
        base = c[(op, layout, s)]
        n = j.get((op, layout, s, "jerasure4j"))
        v = j.get((op, layout, s, "java"))
        fmt = lambda x: "%9.3f" % x if x is not None else "%9s" % "-"
        ratio = lambda x: "%7.0f%%" % (100 * x / base) if x is not None else "%8s" % "-"
        print("%-7s %-5s %-8s %s %s %s %s %s" % (op, layout, "%dKiB" % (s // 1024), fmt(base), fmt(n), fmt(v),
                                              ratio(n), ratio(v)))

table("GB/s of data per wall-clock second (best 1 s window)", c_wall, j_wall)
table("GB/s of data per CPU second of the benchmark thread (best 1 s window)", c_cpu, j_cpu)
PY
