#!/bin/bash
# Builds the probe with the workspace's package, offline, as the sandbox user.
set -euo pipefail
rm -rf /tmp/probe && cp -r /nab/probes/probe /tmp/probe && cd /tmp/probe
exec env -i PATH=/usr/bin:/bin HOME=/tmp GOCACHE=/tmp/gocache GOPATH=/tmp/gopath \
  GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local go build -o /tmp/probe-bin .
