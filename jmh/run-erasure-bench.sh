#!/usr/bin/env bash
# Erasure-coding throughput: the JMH benchmark of both engines (ErasureCodecBenchmark) and the plain-C
# Jerasure program (jmh/native/jerasure_bench.c), same layouts, sizes and working set, one thread each.
# Prints GB/s of data (k x chunkLength bytes per op) and the ratios native/C and java/C.
#
# Every figure is the best 1-second window: the C program's best of 5 trials, JMH's best of its
# measurement iterations (5 by default). The C program runs before and after JMH and the better of
# its two figures is the floor, the more conservative ratio on a machine shared with other work.
#
# usage: jmh/run-erasure-bench.sh [--no-build] [extra JMH args...]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out="$root/jmh/target/erasure-bench"
mkdir -p "$out"

build=true
if [ "${1:-}" = "--no-build" ]; then build=false; shift; fi

if $build; then
  ./mvnw -B -q -pl jmh -am package -DskipTests ${MVN_ARGS:-}
fi
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I/usr/include/jerasure \
    -o "$out/jerasure_bench" jmh/native/jerasure_bench.c -lJerasure -lgf_complete

echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores visible"
echo "java: $(java -version 2>&1 | head -1)"

"$out/jerasure_bench" 1 5 | tee "$out/c-before.txt"
java -jar jmh/target/benchmarks.jar 'io.shardvault.common.erasure.ErasureCodecBenchmark' \
    -rf json -rff "$out/jmh.json" "$@" | grep -E '^(Benchmark|ErasureCodecBenchmark)' || true
"$out/jerasure_bench" 1 5 | tee "$out/c-after.txt"

python3 - "$out" <<'PY'
import json, sys, os
out = sys.argv[1]
c = {}
for name in ("c-before.txt", "c-after.txt"):
    for line in open(os.path.join(out, name)):
        f = line.split()
        if f and f[0] == "c":
            key = (f[1], f[2], int(f[3]))
            c[key] = max(c.get(key, 0.0), float(f[4]))
chunk = lambda k, s: ((s + k - 1) // k + 15) // 16 * 16
rows = {}
for r in json.load(open(os.path.join(out, "jmh.json"))):
    op = r["benchmark"].rsplit(".", 1)[1]
    p = r["params"]
    k = int(p["layout"].split("+")[0])
    s = int(p["stripeBytes"])
    # Best 1 s iteration, like the C program's best trial: on a shared machine the best window is
    # the one least disturbed by other work.
    best = max(v for fork in r["primaryMetric"]["rawData"] for v in fork)
    gbs = best * k * chunk(k, s) / 1e9
    rows[(op, p["layout"], s, p["engine"])] = gbs
print()
print("%-7s %-5s %-8s %9s %9s %9s %8s %8s" % ("op", "k+m", "stripe", "C GB/s", "jni GB/s", "java GB/s", "jni/C", "java/C"))
for (op, layout, s) in sorted(c, key=lambda t: (t[0] != "encode", t[1], -t[2])):
    base = c[(op, layout, s)]
    n = rows.get((op, layout, s, "jerasure4j"))
    j = rows.get((op, layout, s, "java"))
    fmt = lambda v: "%9.3f" % v if v is not None else "%9s" % "-"
    ratio = lambda v: "%7.0f%%" % (100 * v / base) if v is not None else "%8s" % "-"
    label = "%dKiB" % (s // 1024)
    print("%-7s %-5s %-8s %s %s %s %s %s" % (op, layout, label, fmt(base), fmt(n), fmt(j), ratio(n), ratio(j)))
PY
