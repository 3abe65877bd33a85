#!/usr/bin/env bash
# Interop run of the S3 endpoint with boto3 and the AWS CLI (latest from PyPI) against a real local cluster:
# installs (or upgrades) the clients with install.sh, then runs it/'s InteropIT alone, which starts an S3Cluster
# (20 pods, 2 stash servers, a coordinator with its catalog) and drives boto3_interop.py and awscli_interop.sh.
# `./mvnw verify` runs the same test; .ci/run installs the clients first and makes their absence a failure.
# Usage: it/interop/run.sh   (from anywhere; needs python3 with venv)
set -euo pipefail
cd "$(dirname "$0")/../.."
export SHARDVAULT_INTEROP_VENV="${SHARDVAULT_INTEROP_VENV:-$HOME/.cache/shardvault/interop}"
it/interop/install.sh "$SHARDVAULT_INTEROP_VENV"
SHARDVAULT_REQUIRE_INTEROP=true ./mvnw -B -pl it -am verify -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=InteropIT -Dfailsafe.failIfNoSpecifiedTests=false
