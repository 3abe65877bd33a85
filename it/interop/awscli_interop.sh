#!/usr/bin/env bash
# The AWS CLI (v1, from PyPI) against the S3 endpoint: high-level s3 commands and a few s3api calls.
set -euo pipefail
: "${AWS:?path to aws}" "${ENDPOINT:?}" "${WORK:?}"
aws() { "$AWS" --endpoint-url "$ENDPOINT" "$@"; }
head -c $((17 * 1024 * 1024)) /dev/urandom > "$WORK/big.bin"
echo small > "$WORK/small.txt"
aws s3 mb s3://cli-bucket
aws s3 cp --no-progress "$WORK/big.bin" s3://cli-bucket/dir/big.bin
# 17 MiB over the CLI's 8 MiB threshold: a multipart upload (ETag md5-of-md5s-N).
etag=$(aws s3api head-object --bucket cli-bucket --key dir/big.bin --query ETag --output text)
[[ "$etag" =~ -[0-9]+\"?$ ]] || { echo "not a multipart ETag: $etag"; exit 1; }
aws s3 cp --no-progress "$WORK/small.txt" s3://cli-bucket/dir/small.txt
listing=$(aws s3 ls s3://cli-bucket/dir/)
grep -q big.bin <<<"$listing"
aws s3 cp --no-progress s3://cli-bucket/dir/big.bin "$WORK/big.back"
cmp "$WORK/big.bin" "$WORK/big.back"
mkdir -p "$WORK/tree/sub" && echo 1 > "$WORK/tree/a" && echo 2 > "$WORK/tree/sub/b"
aws s3 sync --no-progress "$WORK/tree" s3://cli-bucket/tree
[ "$(aws s3 ls --recursive s3://cli-bucket/tree/ | wc -l)" -eq 2 ]
aws s3api head-object --bucket cli-bucket --key dir/small.txt --checksum-mode ENABLED > /dev/null
aws s3api put-object --bucket cli-bucket --key api.txt --body "$WORK/small.txt" --checksum-algorithm SHA256 > /dev/null
aws s3api get-object --bucket cli-bucket --key api.txt --range bytes=0-2 "$WORK/range.out" > /dev/null
[ "$(cat "$WORK/range.out")" = "sma" ]
if aws s3api get-object --bucket cli-bucket --key nope "$WORK/nope" 2> "$WORK/err.txt"; then exit 1; fi
grep -q NoSuchKey "$WORK/err.txt"
aws s3 rm --recursive s3://cli-bucket/
aws s3 rb s3://cli-bucket
echo "awscli interop passed"
