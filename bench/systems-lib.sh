# Sourced by the benchmarks that start a system under test (bench/run-peer-comparison.sh, bench/profile-cluster.sh,
# bench/flow-lib.sh and the flows under bench/results/): the one way each system is started and known to be ready,
# and the one way the page cache is filled before it. Needs $root, the checkout whose bin/shardvault runs.
#
# start_system SYSTEM DATA LOG [OPTION...]: starts SYSTEM in the background on the data directory DATA, its output in
# LOG, and returns once it serves S3. SYSTEM is
#   minio       ../shared/peers/minio.sh (or MINIO_SH): one server, 8 drive directories (EC 4+4), on MINIO_PORT
#               (9100); the script execs MinIO, so the process started is the server itself;
#   shardvault  bin/shardvault dev with the OPTIONs (e.g. --simulated-hdd, --no-stash): the dev cluster, S3 on 9000;
#               its child processes are its services' JVMs (four as shipped, two with --no-stash).
# Sets sys_pid (the process started), endpoint, access and secret (the system's development credentials; pass the
# secret to clients through their environment, never their command line). Exits, with LOG's tail, when the
# system exits during start-up or is not ready within START_SECONDS (1800: MinIO's first start installs it with
# go install, and bin/shardvault dev builds missing JARs).
start_system() {
  local system=$1 data=$2 log=$3 what
  shift 3
  case "$system" in
    minio)
      [ $# = 0 ] || { echo "start_system: MinIO takes no OPTIONs ($*)" >&2; exit 2; }
      what=MinIO endpoint="http://127.0.0.1:${MINIO_PORT:-9100}" access=peeradmin secret=peeradmin-secret-key
      MINIO_ROOT_USER="$access" MINIO_ROOT_PASSWORD="$secret" \
        "${MINIO_SH:-$root/../shared/peers/minio.sh}" "$data" "${MINIO_PORT:-9100}" >"$log" 2>&1 &
      ;;
    shardvault)
      what="the dev cluster" endpoint="http://127.0.0.1:9000" access=shardvault-dev secret=shardvault-dev-secret
      SHARDVAULT_ACCESS_KEY="$access" SHARDVAULT_SECRET_KEY="$secret" \
        "$root/bin/shardvault" dev --data "$data" "$@" >"$log" 2>&1 &
      ;;
    *)
      echo "start_system: SYSTEM is minio or shardvault, not $system" >&2
      exit 2
      ;;
  esac
  sys_pid=$!
  local _
  for _ in $(seq 1 "$((${START_SECONDS:-1800} * 2))"); do
    system_ready "$system" "$log" && return 0
    if ! kill -0 "$sys_pid" 2>/dev/null; then
      tail -n 20 "$log" >&2
      echo "start_system: $what exited during start-up; see $log" >&2
      exit 1
    fi
    sleep 0.5
  done
  echo "start_system: $what was not ready within ${START_SECONDS:-1800} s, stopped; see $log" >&2
  kill -TERM "$sys_pid" 2>/dev/null
  exit 1
}

# system_ready SYSTEM LOG: whether the system started by start_system serves S3.
system_ready() {
  case "$1" in
    minio) curl -sf -o /dev/null "$endpoint/minio/health/cluster" ;;
    shardvault) grep -q 'S3 endpoint ready at' "$2" ;;
  esac
}

# fill_page_cache FILE: caches dropped (when this user may), then the available memory less FILL_MARGIN_MIB (3072)
# read in from a sparse FILE, so that the pages a system writes into the page cache come from reclaim, as on a server
# that has run for a day, not from memory this VM handed back to its host (docs/PERFORMANCE.md, "Page cache on this
# VM"). Delete FILE after the last run.
fill_page_cache() {
  rm -f "$1"; sync
  if [ -w /proc/sys/vm/drop_caches ]; then echo 3 > /proc/sys/vm/drop_caches; fi
  local avail_kb; avail_kb=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
  if [ "$avail_kb" -le $(((${FILL_MARGIN_MIB:-3072} + 1024) * 1024)) ]; then
    echo "fill_page_cache: only $avail_kb kB of memory available" >&2; exit 2
  fi
  truncate -s $(((avail_kb - ${FILL_MARGIN_MIB:-3072} * 1024) * 1024)) "$1"; cat "$1" > /dev/null
}
# top_up_page_cache FILE: reads FILE again, right before a run. This VM's kernel pages out cold memory on its own (a
# DAMON "pageout" scheme, kdamond), 10-25 MB/s of the fill's clean pages here, so after minutes of waiting for a quiet
# load a run started with 3-7 GiB free instead of 3 (docs/PERFORMANCE.md, "The fill drifts"); the pages paged out
# are read back in, the ones still cached cost a copy.
top_up_page_cache() { cat "$1" > /dev/null; }
# memfree: the free memory, in GiB.
memfree() { awk '/^MemFree:/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo; }
