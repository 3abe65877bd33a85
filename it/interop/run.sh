#!/usr/bin/env bash
# Interop run of the S3 endpoint with boto3 and the AWS CLI (latest from PyPI), against a real local
# cluster (it/'s S3ClusterMain: 20 pods, 2 stash servers and a coordinator with its catalog, in one JVM).
# Usage: it/interop/run.sh   (from anywhere; needs python3-venv)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

export AWS_ACCESS_KEY_ID=AKIDINTEROP0001
export AWS_SECRET_ACCESS_KEY=interop/secret/key/0123456789abcdef
export AWS_DEFAULT_REGION=us-east-1
export AWS_CONFIG_FILE="$WORK/aws-config"
export AWS_SHARED_CREDENTIALS_FILE="$WORK/aws-credentials"
printf '[default]\nregion = us-east-1\ns3 =\n    addressing_style = path\n' > "$AWS_CONFIG_FILE"
: > "$AWS_SHARED_CREDENTIALS_FILE"

echo "interop: building the it test classes and their classpath"
# package (not test-compile): it/ needs the coordinator's test-jar; unit tests are skipped, nothing is installed.
./mvnw -B -q -pl it -am package -DskipTests dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$WORK/cp.txt" >/dev/null
CP="$ROOT/it/target/test-classes:$(cat "$WORK/cp.txt")"

echo "interop: installing boto3 (with the CRT, for CRC32C and CRC64NVME) and awscli, latest, into separate venvs"
python3 -m venv "$WORK/boto3" && "$WORK/boto3/bin/pip" install -q --upgrade boto3 'botocore[crt]' 
python3 -m venv "$WORK/awscli" && "$WORK/awscli/bin/pip" install -q --upgrade awscli

mkfifo "$WORK/stdin"
java -Xmx1g -cp "$CP" io.shardvault.it.s3.S3ClusterMain 0 "$AWS_ACCESS_KEY_ID" "$AWS_SECRET_ACCESS_KEY" \
  "$WORK/cluster" < "$WORK/stdin" > "$WORK/server.out" 2> "$WORK/server.err" &
SERVER_PID=$!
exec 9> "$WORK/stdin"
# A cluster (20 pods, a Raft election) takes longer to start than the in-memory server did.
for _ in $(seq 1 600); do
  grep -q LISTENING "$WORK/server.out" 2>/dev/null && break
  sleep 0.2
done
PORT=$(awk '/LISTENING/ {print $2}' "$WORK/server.out")
[ -n "$PORT" ] || { echo "interop: server did not start"; cat "$WORK/server.err"; exit 1; }
export ENDPOINT="http://127.0.0.1:$PORT"
echo "interop: server on $ENDPOINT"

echo "interop: boto3 $("$WORK/boto3/bin/python" -c 'import boto3; print(boto3.__version__)')"
"$WORK/boto3/bin/python" it/interop/boto3_interop.py
echo "interop: $("$WORK/awscli/bin/aws" --version 2>&1)"
AWS="$WORK/awscli/bin/aws" WORK="$WORK" bash it/interop/awscli_interop.sh
echo "interop: all passed"
