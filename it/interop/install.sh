#!/usr/bin/env bash
# Installs the interop clients that it/'s InteropIT drives: boto3 (with the CRT, for CRC32C and CRC64NVME), the
# AWS CLI v1 and s3cmd, latest from PyPI (pip's default index), each in its own venv (each pins its own
# botocore or dependencies); and it/interop/go, a program on the AWS SDK for Go v2 (the versions in its go.mod,
# fetched by `go mod download`), built to $DIR/go/s3interop. rclone is Debian's package (.ci/run installs it).
# Usage: it/interop/install.sh [dir]   (default $SHARDVAULT_INTEROP_VENV or ~/.cache/shardvault/interop;
# needs python3 with venv, Debian: python3-venv, and Go, found on PATH or in /usr/local/go/bin)
set -euo pipefail
DIR=${1:-${SHARDVAULT_INTEROP_VENV:-$HOME/.cache/shardvault/interop}}
mkdir -p "$DIR"
for tool in boto3 awscli s3cmd; do
  [ -x "$DIR/$tool/bin/pip" ] || python3 -m venv "$DIR/$tool"
done
"$DIR/boto3/bin/pip" install -q --disable-pip-version-check --upgrade boto3 'botocore[crt]'
"$DIR/awscli/bin/pip" install -q --disable-pip-version-check --upgrade awscli
"$DIR/s3cmd/bin/pip" install -q --disable-pip-version-check --upgrade s3cmd

GO=$(command -v go || echo /usr/local/go/bin/go)
(cd "$(dirname "$0")/go" && "$GO" mod download && "$GO" build -o "$DIR/go/s3interop" .)

echo "interop: boto3 $("$DIR/boto3/bin/python" -c 'import boto3; print(boto3.__version__)')," \
  "$("$DIR/awscli/bin/aws" --version 2>&1), $("$DIR/s3cmd/bin/s3cmd" --version)," \
  "aws-sdk-go-v2 $(cd "$(dirname "$0")/go" && "$GO" list -m -f '{{.Version}}' github.com/aws/aws-sdk-go-v2/service/s3)" \
  "(service/s3, $("$GO" version | cut -d' ' -f3)) in $DIR"
