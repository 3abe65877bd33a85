#!/usr/bin/env bash
# usage: ROOT=checkout minio-flow.sh: flow.sh's phases against MinIO (../shared/peers/minio.sh, 8 drive directories,
# EC 4+4, on port 9100), the bench tool of ROOT; per phase the MinIO process's CPU per request from /proc.
set -euo pipefail
root=${ROOT:?a built checkout}; work=$(mktemp -d /tmp/steady-minio.XXXXXX)
if ss -ltn | grep -q ':9100 '; then echo "minio: port 9100 is taken; not measuring"; exit 1; fi
"$root/../shared/peers/minio.sh" "$work/data" 9100 > "$work/minio.log" 2>&1 &
mpid=$!
trap 'kill -TERM $mpid; wait $mpid || true; rm -rf "$work"' EXIT
for _ in $(seq 1 240); do curl -sf http://127.0.0.1:9100/minio/health/cluster > /dev/null && break; sleep 0.5; done
bench() { SHARDVAULT_SECRET_KEY=peeradmin-secret-key "$root/bin/shardvault" bench "$@" 2>/dev/null \
  --endpoint http://127.0.0.1:9100 --access-key peeradmin --bucket steady --no-progress; }
ticks() { sed 's/^.*) //' /proc/$mpid/stat | awk '{print $12+$13}'; }
phase() { local label=$1 n=$2 t0 t1 out; shift 2; t0=$(ticks); out=$("$@"); t1=$(ticks)
  echo "minio $label minio=$(( (t1-t0)*10000/n ))us [$(echo "$out" | awk '$1=="run" && $4 ~ /KiB|MiB/ {print $3 " p50=" $8 " obj/s=" $12}' | tr '\n' ' ')]"; }
bench latency --count 750 --warmup 0 --pause-ms 0 --sizes 256KiB,1MiB > /dev/null
bench ttfb --sizes 1MiB --objects 200 --clients 16 --run-id steady --only upload > /dev/null
for round in $(seq 1 "${ROUNDS:-8}"); do
  phase "put16-$round" 400 bench throughput --clients 16 --sizes 1MiB --count 400 --ops PUT
  phase "get16-$round" 400 bench ttfb --sizes 1MiB --objects 200 --clients 16 --run-id steady --only read --count 400 \
    --warmup 0
done
echo "minio resident memory at the end: $(awk '/^VmRSS:/ {printf "%.0f", $2 / 1024}' /proc/$mpid/status) MB"
