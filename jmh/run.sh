#!/usr/bin/env bash
# Builds the shaded benchmarks jar and runs JMH with fixed JVM flags and the GC profiler.
#   jmh/run.sh                      every benchmark
#   jmh/run.sh RpcRoundTrip         benchmarks whose name matches a regex
#   jmh/run.sh RpcRoundTrip -p transportKind=epoll -rf json -rff out.json   (any JMH options)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${SKIP_BUILD:-}" != "1" ]; then
  ./mvnw -B -q -DskipTests -pl jmh -am package
fi
exec java -jar jmh/target/benchmarks.jar -prof gc "$@"
