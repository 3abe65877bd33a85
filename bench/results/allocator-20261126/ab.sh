#!/usr/bin/env bash
export ROOT=/work/wt-perf
for round in 1 2; do
for v in A B C; do
  case $v in
    A) o="-Dio.netty.allocator.lowMemory=true -Dio.netty.leakDetection.level=simple" ;;
    B) o="" ;;
    C) o="-XX:CompileThresholdScaling=1.0" ;;
  esac
  echo "# $v round $round $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
  /tmp/jit/var2.sh "$v$round" "$o"
  sleep 20
done
done
