#!/usr/bin/env bash
# Installs the interop clients, latest from PyPI (pip's default index), into two venvs that it/'s InteropIT
# uses: boto3 (with the CRT, for CRC32C and CRC64NVME) and the AWS CLI v1 (separate: each pins its botocore).
# Usage: it/interop/install.sh [dir]   (default $SHARDVAULT_INTEROP_VENV or ~/.cache/shardvault/interop;
# needs python3 with venv, Debian: python3-venv)
set -euo pipefail
DIR=${1:-${SHARDVAULT_INTEROP_VENV:-$HOME/.cache/shardvault/interop}}
mkdir -p "$DIR"
for tool in boto3 awscli; do
  [ -x "$DIR/$tool/bin/pip" ] || python3 -m venv "$DIR/$tool"
done
"$DIR/boto3/bin/pip" install -q --disable-pip-version-check --upgrade boto3 'botocore[crt]'
"$DIR/awscli/bin/pip" install -q --disable-pip-version-check --upgrade awscli
echo "interop: boto3 $("$DIR/boto3/bin/python" -c 'import boto3; print(boto3.__version__)'), $("$DIR/awscli/bin/aws" --version 2>&1) in $DIR"
