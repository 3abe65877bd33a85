#!/usr/bin/env bash
# usage: ROOT=checkout minio-flow.sh: flow.sh's phases against MinIO (../shared/peers/minio.sh, 8 drive directories,
# EC 4+4, on port 9100), the bench tool of ROOT; per phase the MinIO process's CPU per request from /proc.
set -euo pipefail
# flow-lib.sh for run_summary and start_system; bench, ticks and phase are redefined below for MinIO.
source "$(cd "$(dirname "$0")/../.." && pwd)/flow-lib.sh"
source "$(dirname "$0")/phases.sh"
root=${ROOT:?a built checkout}; work=$(mktemp -d /tmp/steady-minio.XXXXXX)
if ss -ltn | grep -q ':9100 '; then echo "minio: port 9100 is taken; not measuring"; exit 1; fi
trap '[ -z "${sys_pid:-}" ] || { kill -TERM $sys_pid; wait $sys_pid || true; }; rm -rf "$work"' EXIT
MINIO_PORT=9100 start_system minio "$work/data" "$work/minio.log"
mpid=$sys_pid
bench() { SHARDVAULT_SECRET_KEY=peeradmin-secret-key "$root/bin/shardvault" bench "$@" 2>/dev/null \
  --endpoint http://127.0.0.1:9100 --access-key peeradmin --bucket steady --no-progress; }
ticks() { sed 's/^.*) //' /proc/$mpid/stat | awk '{print $12+$13}'; }
phase() { local label=$1 n=$2 t0 t1 out; shift 2; t0=$(ticks); out=$("$@"); t1=$(ticks)
  echo "minio $label minio=$(( (t1-t0)*10000/n ))us [$(run_summary <<< "$out")]"; }
run_phases
echo "minio resident memory at the end: $(awk '/^VmRSS:/ {printf "%.0f", $2 / 1024}' /proc/$mpid/status) MB"
