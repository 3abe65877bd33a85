#!/usr/bin/env bash
# s3cmd (latest from PyPI) against the S3 endpoint with its default settings (SigV4, 15 MiB multipart chunks):
# mb, put (one small, one of 17 MiB: multipart), ls, get with the MD5 checked, info, del, rb. Its config is a
# .s3cfg generated here (path style: host_bucket without %(bucket)s), passed with -c.
set -euo pipefail
: "${S3CMD:?path to s3cmd}" "${ENDPOINT:?}" "${ACCESS_KEY:?}" "${SECRET_KEY:?}" "${WORK:?}" "${BUCKET:?}"
hostport=${ENDPOINT#http://}
hostport=${hostport%/}
cat > "$WORK/s3cfg" <<EOF
[default]
access_key = $ACCESS_KEY
secret_key = $SECRET_KEY
host_base = $hostport
host_bucket = $hostport
use_https = False
EOF
s3cmd() { "$S3CMD" -c "$WORK/s3cfg" "$@"; }
b="s3://$BUCKET"

echo small > "$WORK/small.txt"
head -c $((17 * 1024 * 1024 + 5)) /dev/urandom > "$WORK/big.bin"
s3cmd mb "$b"
s3cmd put "$WORK/small.txt" "$b/dir/small.txt"
# Over s3cmd's 15 MiB chunk: a 2-part upload (its progress meter, forced on, names the parts).
s3cmd --progress put "$WORK/big.bin" "$b/dir/big.bin" > "$WORK/put.out"
grep -q "part 2 of 2" "$WORK/put.out" || { cat "$WORK/put.out"; echo "17 MiB was not a 2-part multipart upload"; exit 1; }

s3cmd ls "$b/dir/" | tee "$WORK/ls.out"
grep -q " 17825797 *$b/dir/big.bin\$" "$WORK/ls.out" || { echo "big.bin not listed with its size"; exit 1; }
grep -q " 6 *$b/dir/small.txt\$" "$WORK/ls.out" || { echo "small.txt not listed with its size"; exit 1; }

# s3cmd checks a download's MD5 against the ETag, or for a multipart upload against the MD5 it stored in
# x-amz-meta-s3cmd-attrs, and says "MD5 signatures do not match" (exit 0) when they differ.
for name in small.txt big.bin; do
  s3cmd get --force "$b/dir/$name" "$WORK/$name.back" 2>&1 | tee "$WORK/get.out"
  if grep -qi "md5 signatures do not match" "$WORK/get.out"; then exit 1; fi
  cmp "$WORK/$name" "$WORK/$name.back"
  md5=$(md5sum < "$WORK/$name" | cut -d' ' -f1)
  s3cmd info "$b/dir/$name" | tee "$WORK/info.out"
  grep -q "MD5 sum: *$md5\$" "$WORK/info.out" || { echo "s3cmd info lacks MD5 $md5"; exit 1; }
done
grep -q "File size: *17825797\$" "$WORK/info.out"

s3cmd del "$b/dir/small.txt"
[ "$(s3cmd ls "$b/dir/" | wc -l)" -eq 1 ]
s3cmd del --recursive --force "$b/"
[ -z "$(s3cmd ls --recursive "$b")" ] || { echo "objects left:"; s3cmd ls --recursive "$b"; exit 1; }
s3cmd rb "$b"
if s3cmd ls | grep -q " $b\$"; then echo "$b still listed after rb"; exit 1; fi
echo "s3cmd interop passed"
