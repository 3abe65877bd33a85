#!/usr/bin/env bash
# Interop run of the S3 endpoint with real clients against a real local cluster: installs (or upgrades) boto3,
# the AWS CLI and s3cmd and builds the AWS SDK for Go v2 program with install.sh, then runs it/'s InteropIT alone,
# which starts an S3Cluster (20 pods, 2 stash servers, a coordinator with its catalog) and drives
# boto3_interop.py, awscli_interop.sh, s3cmd_interop.sh, rclone_interop.sh and go/.
# `./mvnw verify` runs the same test; .ci/run installs the clients first and makes their absence a failure.
# Usage: it/interop/run.sh   (from anywhere; needs python3 with venv, Go, and rclone: apt-get install rclone)
set -euo pipefail
cd "$(dirname "$0")/../.."
export SHARDVAULT_INTEROP_VENV="${SHARDVAULT_INTEROP_VENV:-$HOME/.cache/shardvault/interop}"
it/interop/install.sh "$SHARDVAULT_INTEROP_VENV"
SHARDVAULT_REQUIRE_INTEROP=true ./mvnw -B -pl it -am verify -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=InteropIT -Dfailsafe.failIfNoSpecifiedTests=false
