#!/usr/bin/env bash
# syncfs A/B on the syncfs tree, then TLS A/B on main; ABBA order each; nothing else may run.
set -u
out=/tmp/sfs/ab-results.txt; : > $out
run() { echo "== $1 start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out; "${@:2}" >> $out 2>&1; }
for v in off on on off; do
  if [ $v = off ]; then o="-Dshardvault.fs.syncfs.disabled=true"; else o=""; fi
  run "syncfs-$v" env ROOT=/work/wt-syncfs /tmp/sfs/flow.sh "syncfs-$v" "$o"
done
for v in plain tls tls plain; do
  if [ $v = tls ]; then a="--tls"; else a=""; fi
  run "rpc-$v" env ROOT=/work/main DEV_ARGS="$a" /tmp/sfs/flow.sh "$v" ""
done
echo "== done $(date -u +%T)" >> $out
