# The phases of flow.sh and minio-flow.sh, sourced by both; each defines bench and phase before it calls run_phases.
# The comparison's warm-up (1,500 sequential PUTs, half 256 KiB, half 1 MiB), 200 objects of 1 MiB to read, then
# ROUNDS (8) rounds of two 16-client loads: 400 PUTs of 1 MiB, and 400 GETs of the 200 objects.
run_phases() {
  local round
  bench latency --count 750 --warmup 0 --pause-ms 0 --sizes 256KiB,1MiB > /dev/null
  bench ttfb --sizes 1MiB --objects 200 --clients 16 --run-id steady --only upload > /dev/null
  for round in $(seq 1 "${ROUNDS:-8}"); do
    phase "put16-$round" 400 bench throughput --clients 16 --sizes 1MiB --count 400 --ops PUT
    phase "get16-$round" 400 bench ttfb --sizes 1MiB --objects 200 --clients 16 --run-id steady --only read \
      --count 400 --warmup 0
  done
}
