#!/usr/bin/env bash
# rclone (Debian's package) against the S3 endpoint with its default settings: a tree of mixed sizes synced up
# and back, `rclone check` both ways, lsf, delete, purge. The largest file is just over rclone's default
# upload_cutoff (200 MiB), the smallest size that makes rclone upload multipart (5 MiB chunks) without a
# non-default setting; it is what this run costs most (a 201 MiB PUT and GET through the cluster).
# The remote is configured through the environment only, with RCLONE_CONFIG pointing at an empty file here.
set -euo pipefail
: "${RCLONE:?path to rclone}" "${ENDPOINT:?}" "${ACCESS_KEY:?}" "${SECRET_KEY:?}" "${WORK:?}" "${BUCKET:?}"
export RCLONE_CONFIG="$WORK/rclone.conf"
: > "$RCLONE_CONFIG"
export RCLONE_CONFIG_SV_TYPE=s3 RCLONE_CONFIG_SV_PROVIDER=Other RCLONE_CONFIG_SV_ENDPOINT="$ENDPOINT" \
  RCLONE_CONFIG_SV_ACCESS_KEY_ID="$ACCESS_KEY" RCLONE_CONFIG_SV_SECRET_ACCESS_KEY="$SECRET_KEY" \
  RCLONE_CONFIG_SV_REGION=us-east-1 RCLONE_CONFIG_SV_FORCE_PATH_STYLE=true
rclone() { "$RCLONE" "$@"; }
remote="sv:$BUCKET"

tree="$WORK/tree"
mkdir -p "$tree/sub dir/deeper"
: > "$tree/empty"
echo "a small file" > "$tree/small.txt"
echo "ünïcödé name" > "$tree/sub dir/ünï cödé.txt"
head -c $((3 * 1024 * 1024 + 17)) /dev/urandom > "$tree/sub dir/few-mib.bin"
head -c $((201 * 1024 * 1024)) /dev/urandom > "$tree/sub dir/deeper/over-cutoff.bin"

rclone mkdir "$remote"
rclone sync "$tree" "$remote/tree"
rclone check "$tree" "$remote/tree"
# rclone keeps the MD5 of a multipart upload in its metadata: the ETag of one is md5-of-md5s-N.
rclone lsjson --hash "$remote/tree/sub dir/deeper/over-cutoff.bin" > "$WORK/big.json"
md5=$(md5sum < "$tree/sub dir/deeper/over-cutoff.bin" | cut -d' ' -f1)
grep -q "\"md5\":\"$md5\"" "$WORK/big.json" || { echo "no MD5 $md5 for the multipart upload:"; cat "$WORK/big.json"; exit 1; }

rclone sync "$remote/tree" "$WORK/back"
rclone check "$remote/tree" "$WORK/back"
diff -r "$tree" "$WORK/back"

expected=$'empty\nsmall.txt\nsub dir/\nsub dir/deeper/\nsub dir/deeper/over-cutoff.bin\nsub dir/few-mib.bin\nsub dir/ünï cödé.txt'
listed=$(rclone lsf -R "$remote/tree" | LC_ALL=C sort)
[ "$listed" = "$(LC_ALL=C sort <<<"$expected")" ] || { echo "rclone lsf listed:"; echo "$listed"; exit 1; }

rclone delete "$remote/tree/small.txt"
[ "$(rclone lsf "$remote/tree" --files-only)" = "empty" ] || { echo "after delete:"; rclone lsf "$remote/tree"; exit 1; }
rclone purge "$remote"
if rclone lsf "$remote" 2> "$WORK/gone.err"; then echo "the bucket outlived rclone purge"; exit 1; fi
if rclone lsd sv: | grep -q " $BUCKET\$"; then echo "rclone lsd still lists $BUCKET"; exit 1; fi
echo "rclone interop passed"
